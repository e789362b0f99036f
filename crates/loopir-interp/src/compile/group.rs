//! The types of loads from a GPU block's packed shared memory, which Halide's text
//! leaves out.
//!
//! Fusing a GPU block's thread loops packs the Funcs computed in the block into one
//! allocation per memory type, `allocgroup__<names>`, of the widest of their types
//! (`FuseGPUThreadLoops.cpp`); a member keeps its own type on its loads and stores, and
//! indexes in its own units. The printer writes a load inside `allocate name[...]`
//! without its type (it is the allocation's for every other allocation), so read as
//! the allocation's type a load of a narrower member reads the wrong bytes (camera_pipe
//! packs its uint8 `f28` into uint16 memory) and a member of another signedness the
//! wrong values (its int16 `output`). A store says its type: its value's.
//!
//! After the fusion each stage of the block is a `produce f { consume g { ... } }`
//! section, and a section reads the members it consumes. So a member's type is the type
//! of what is stored to the group inside its `produce`, and a load of the group inside
//! `consume`s of members of one type has that type (inside none, the type of the member
//! being produced: an update reading its own Func). Where the members differ, or where
//! a load comes before any store of its member, the load keeps the allocation's type.

use loopir::Name;
use rustc_hash::FxHashMap;

use crate::elem::Elem;

/// The prefix Halide gives the name of an allocation that packs several Funcs.
const GROUP_PREFIX: &str = "allocgroup__";

/// What the compiler knows about allocation groups at the node it compiles.
#[derive(Default)]
pub(super) struct Groups {
    /// The element type of every member of every group seen so far (`None` where its
    /// stores disagree), by group and Func.
    members: FxHashMap<Name, FxHashMap<Name, Option<Elem>>>,
    /// The `produce` (true) and `consume` (false) sections around the node, outermost
    /// first.
    sections: Vec<(Name, bool)>,
    /// The element type of each group allocated.
    allocated: FxHashMap<Name, Elem>,
}

impl Groups {
    /// Notes an allocation: if it is a group, its element type.
    pub(super) fn allocate(&mut self, name: &Name, elem: Elem) {
        if name.starts_with(GROUP_PREFIX) {
            self.allocated.insert(name.clone(), elem);
        }
    }

    /// Enters `produce name` (`is_producer`) or `consume name`.
    pub(super) fn enter(&mut self, name: &Name, is_producer: bool) {
        self.sections.push((name.clone(), is_producer));
    }

    /// Leaves the innermost section.
    pub(super) fn leave(&mut self) {
        self.sections.pop();
    }

    /// Notes a store of `elem` to buffer `name`: if it is a group, the type of the Func
    /// being produced.
    pub(super) fn stored(&mut self, name: &Name, elem: Elem) {
        if !self.allocated.contains_key(name) {
            return;
        }
        let group = name;
        let Some((func, _)) = self.sections.iter().rev().find(|(_, p)| *p) else { return };
        let entry = self.members.entry(group.clone()).or_default().entry(func.clone()).or_insert(Some(elem));
        if *entry != Some(elem) {
            *entry = None;
        }
    }

    /// The element type of a load of buffer `name` that the text types as `elem`: if
    /// `name` is a group and `elem` its type, that of the members consumed around the
    /// load, else of those produced, if they have one; else `elem`.
    pub(super) fn load_elem(&self, name: &Name, elem: Elem) -> Elem {
        if self.allocated.get(name) != Some(&elem) {
            return elem;
        }
        self.member_elem(name).unwrap_or(elem)
    }

    fn member_elem(&self, group: &Name) -> Option<Elem> {
        let of = self.members.get(group)?;
        for producing in [false, true] {
            let mut found = None;
            for (func, _) in self.sections.iter().filter(|(_, p)| *p == producing) {
                match of.get(func) {
                    Some(Some(e)) if found.is_none_or(|f| f == *e) => found = Some(*e),
                    Some(_) => return None,
                    None => {}
                }
            }
            if found.is_some() {
                return found;
            }
        }
        None
    }
}
