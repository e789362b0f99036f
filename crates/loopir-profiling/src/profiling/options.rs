//! Which parts of the instrumentation to emit: seven independent feature bits and the
//! four profiling levels built from them.
//!
//! Whatever bits are set, the output is well-formed: every allocation the pass adds is
//! freed (except the instance state, which the reference never frees either), sampling
//! tokens are acquired and released in pairs, active-thread updates are balanced, and
//! every runtime call names an instance that is in scope. `docs/profiling.md` has the
//! table of what each bit adds, with examples.

use std::fmt;
use std::ops::{BitAnd, BitOr, BitOrAssign, Not, Sub};
use std::str::FromStr;

/// One switchable part of the profiling instrumentation.
///
/// Whenever at least one bit is set the pass emits the *instance*: the
/// `profiler_instance` allocation, the destructor that ends it, the row tables, the
/// `halide_profiler_instance_start` call and its check, and the enable-instance call in
/// place of bounds inference's marker. Each bit then adds exactly the calls listed on it.
/// Some calls need two bits (they are listed on both); nothing else depends on another bit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Feature {
    /// Current-row marks: every `halide_profiler_set_current_func` — at each produce and
    /// consume of a profiled Func (elided to `0` when the row is already current), the
    /// pipeline's start and end marks (row 0), and, together with the other bits, the marks
    /// around heap allocations ([`Feature::HeapMemory`]), copies ([`Feature::CopySites`])
    /// and thread brackets ([`Feature::ThreadActivity`]).
    Timing,
    /// Heap accounting: `halide_profiler_memory_allocate` before each heap allocation and
    /// `halide_profiler_memory_free` before its release (with [`Feature::Timing`], the
    /// `malloc` / `free` rows are made current around them).
    HeapMemory,
    /// Static stack peaks per row: the `profiler_func_stack_peak_buf` table and the
    /// `halide_profiler_stack_peak_update` call (only when some allocation is on the
    /// stack), and the `stack_peak_bytes` column of the entry table.
    StackPeaks,
    /// Active-thread counting: `halide_profiler_incr/decr_active_threads` around the
    /// pipeline, parallel loops, Forks and Acquires, GPU and Hexagon launches (with
    /// [`Feature::Timing`], the forced current-row marks that go with them: `thread idle`
    /// while a thread waits, the enclosing row when a task starts).
    ThreadActivity,
    /// Sampling tokens: the shared `profiler_shared_sampling_token` and, in each leaf
    /// parallel task, a local token acquired at the start and released at the end; current-
    /// row marks inside leaf tasks ([`Feature::Timing`]) pass the local token.
    SamplingTokens,
    /// Host↔device copy rows: a `f (copy to host)` / `f (copy to device)` row per copy
    /// site (kinds 5 and 6); with [`Feature::Timing`] each copy is billed to its row.
    CopySites,
    /// Device syncs: `halide_device_sync_global` (checked) after each outermost GPU loop
    /// and after each copy to the device, so that asynchronous device time is billed to
    /// the row that caused it.
    DeviceSync,
}

impl Feature {
    /// Every feature, in bit order.
    pub const ALL: [Feature; 7] = [
        Feature::Timing,
        Feature::HeapMemory,
        Feature::StackPeaks,
        Feature::ThreadActivity,
        Feature::SamplingTokens,
        Feature::CopySites,
        Feature::DeviceSync,
    ];

    /// The feature's bit in [`ProfileOptions::bits`].
    pub const fn bit(self) -> u8 {
        1 << (self as u8)
    }

    /// The feature's name on the command line and in documentation (`timing`, `heap`,
    /// `stack`, `threads`, `tokens`, `copies`, `device-sync`).
    pub const fn name(self) -> &'static str {
        match self {
            Feature::Timing => "timing",
            Feature::HeapMemory => "heap",
            Feature::StackPeaks => "stack",
            Feature::ThreadActivity => "threads",
            Feature::SamplingTokens => "tokens",
            Feature::CopySites => "copies",
            Feature::DeviceSync => "device-sync",
        }
    }

    /// The feature named `name` (as [`Feature::name`] spells it; `_` may stand for `-`).
    pub fn from_name(name: &str) -> Option<Feature> {
        let name = name.trim();
        Feature::ALL.into_iter().find(|f| f.name() == name || f.name().replace('-', "_") == name)
    }
}

impl fmt::Display for Feature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The set of [`Feature`]s to emit, packed as independent bits (bit `i` is
/// `Feature::ALL[i]`).
///
/// The default is [`ProfileOptions::ALL`] (level 3), which is exactly what the reference
/// compiler emits for a `profile` target. The empty set (level 0) turns the pass off: it
/// returns its input statement itself, unchanged.
///
/// ```
/// use loopir_profiling::{Feature, ProfileOptions};
///
/// let opts = ProfileOptions::level(2).expect("levels are 0 to 3");
/// assert!(opts.contains(Feature::HeapMemory) && !opts.contains(Feature::ThreadActivity));
/// assert_eq!(opts, "timing,heap,stack".parse().expect("valid feature list"));
/// assert_eq!(ProfileOptions::ALL.without(Feature::DeviceSync).to_string(),
///            "timing,heap,stack,threads,tokens,copies");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct ProfileOptions {
    bits: u8,
}

impl ProfileOptions {
    /// No instrumentation at all (level 0).
    pub const NONE: ProfileOptions = ProfileOptions { bits: 0 };
    /// Every feature (level 3, the reference behaviour).
    pub const ALL: ProfileOptions = ProfileOptions { bits: (1 << Feature::ALL.len()) - 1 };
    /// Level 1: timing only (the instance and the current-row marks).
    pub const TIMING_ONLY: ProfileOptions = ProfileOptions { bits: Feature::Timing.bit() };
    /// Level 2: timing plus memory (heap accounting and stack peaks).
    pub const TIMING_AND_MEMORY: ProfileOptions = ProfileOptions {
        bits: Feature::Timing.bit() | Feature::HeapMemory.bit() | Feature::StackPeaks.bit(),
    };
    /// The highest level.
    pub const MAX_LEVEL: u8 = 3;

    /// The preset of profiling level `level`: 0 off, 1 timing, 2 timing and memory, 3
    /// everything. `None` above [`ProfileOptions::MAX_LEVEL`]. Each level emits a subset of
    /// the next one's features.
    pub const fn level(level: u8) -> Option<ProfileOptions> {
        match level {
            0 => Some(ProfileOptions::NONE),
            1 => Some(ProfileOptions::TIMING_ONLY),
            2 => Some(ProfileOptions::TIMING_AND_MEMORY),
            3 => Some(ProfileOptions::ALL),
            _ => None,
        }
    }

    /// The options whose bits are `bits`; `None` if a bit above the last feature is set.
    pub const fn from_bits(bits: u8) -> Option<ProfileOptions> {
        if bits & !ProfileOptions::ALL.bits == 0 { Some(ProfileOptions { bits }) } else { None }
    }

    /// The options as bits (bit `i` is `Feature::ALL[i]`).
    pub const fn bits(self) -> u8 {
        self.bits
    }

    /// Whether `feature` is on.
    pub const fn contains(self, feature: Feature) -> bool {
        self.bits & feature.bit() != 0
    }

    /// Whether every feature of `other` is on here too.
    pub const fn is_superset_of(self, other: ProfileOptions) -> bool {
        self.bits & other.bits == other.bits
    }

    /// Whether no feature is on (the pass is off).
    pub const fn is_empty(self) -> bool {
        self.bits == 0
    }

    /// These options with `feature` on.
    #[must_use]
    pub const fn with(self, feature: Feature) -> ProfileOptions {
        ProfileOptions { bits: self.bits | feature.bit() }
    }

    /// These options with `feature` off.
    #[must_use]
    pub const fn without(self, feature: Feature) -> ProfileOptions {
        ProfileOptions { bits: self.bits & !feature.bit() }
    }

    /// These options with `feature` set to `on`.
    #[must_use]
    pub const fn set(self, feature: Feature, on: bool) -> ProfileOptions {
        if on { self.with(feature) } else { self.without(feature) }
    }

    /// The features that are on, in bit order.
    pub fn features(self) -> impl Iterator<Item = Feature> {
        Feature::ALL.into_iter().filter(move |f| self.contains(*f))
    }

    /// The lowest level whose preset equals these options, if any.
    pub fn as_level(self) -> Option<u8> {
        (0..=ProfileOptions::MAX_LEVEL).find(|&l| ProfileOptions::level(l) == Some(self))
    }

    /// Every combination of features (2⁷ of them), in increasing bit order.
    pub fn all_combinations() -> impl Iterator<Item = ProfileOptions> {
        (0..=ProfileOptions::ALL.bits).map(|bits| ProfileOptions { bits })
    }
}

impl Default for ProfileOptions {
    /// [`ProfileOptions::ALL`]: the reference behaviour.
    fn default() -> Self {
        ProfileOptions::ALL
    }
}

impl From<Feature> for ProfileOptions {
    fn from(f: Feature) -> Self {
        ProfileOptions { bits: f.bit() }
    }
}

impl FromIterator<Feature> for ProfileOptions {
    fn from_iter<I: IntoIterator<Item = Feature>>(iter: I) -> Self {
        iter.into_iter().fold(ProfileOptions::NONE, ProfileOptions::with)
    }
}

impl BitOr for ProfileOptions {
    type Output = ProfileOptions;
    fn bitor(self, rhs: ProfileOptions) -> ProfileOptions {
        ProfileOptions { bits: self.bits | rhs.bits }
    }
}

impl BitOr<Feature> for ProfileOptions {
    type Output = ProfileOptions;
    fn bitor(self, rhs: Feature) -> ProfileOptions {
        self.with(rhs)
    }
}

impl BitOr for Feature {
    type Output = ProfileOptions;
    fn bitor(self, rhs: Feature) -> ProfileOptions {
        ProfileOptions::from(self).with(rhs)
    }
}

impl BitOrAssign<Feature> for ProfileOptions {
    fn bitor_assign(&mut self, rhs: Feature) {
        *self = self.with(rhs);
    }
}

impl BitAnd for ProfileOptions {
    type Output = ProfileOptions;
    fn bitand(self, rhs: ProfileOptions) -> ProfileOptions {
        ProfileOptions { bits: self.bits & rhs.bits }
    }
}

impl Sub for ProfileOptions {
    type Output = ProfileOptions;
    fn sub(self, rhs: ProfileOptions) -> ProfileOptions {
        ProfileOptions { bits: self.bits & !rhs.bits }
    }
}

impl Sub<Feature> for ProfileOptions {
    type Output = ProfileOptions;
    fn sub(self, rhs: Feature) -> ProfileOptions {
        self.without(rhs)
    }
}

impl Not for ProfileOptions {
    type Output = ProfileOptions;
    fn not(self) -> ProfileOptions {
        ProfileOptions { bits: !self.bits & ProfileOptions::ALL.bits }
    }
}

impl fmt::Display for ProfileOptions {
    /// The feature names joined by `,` (`none` for the empty set); [`FromStr`] reads it back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("none");
        }
        for (i, feature) in self.features().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            f.write_str(feature.name())?;
        }
        Ok(())
    }
}

impl fmt::Debug for ProfileOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ProfileOptions({self})")
    }
}

/// A feature list that names no known feature.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown profiling feature `{name}` (known: timing, heap, stack, threads, tokens, copies, device-sync, or none / all)"
)]
pub struct UnknownFeature {
    /// The unrecognised name.
    pub name: String,
}

impl FromStr for ProfileOptions {
    type Err = UnknownFeature;

    /// A comma-separated list of feature names; `none` (or an empty string) is the empty
    /// set and `all` every feature.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut opts = ProfileOptions::NONE;
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            match part {
                "none" => {}
                "all" => opts = ProfileOptions::ALL,
                _ => match Feature::from_name(part) {
                    Some(f) => opts |= f,
                    None => return Err(UnknownFeature { name: part.to_owned() }),
                },
            }
        }
        Ok(opts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_nested_presets() {
        let levels: Vec<ProfileOptions> = (0..=3).filter_map(ProfileOptions::level).collect();
        assert_eq!(levels.len(), 4);
        assert_eq!(levels[0], ProfileOptions::NONE);
        assert_eq!(levels[3], ProfileOptions::ALL);
        assert_eq!(levels[3], ProfileOptions::default());
        for pair in levels.windows(2) {
            assert!(pair[1].is_superset_of(pair[0]) && pair[1] != pair[0], "{pair:?}");
        }
        assert_eq!(ProfileOptions::level(4), None);
        for (l, o) in levels.iter().enumerate() {
            assert_eq!(o.as_level(), Some(l as u8));
        }
    }

    #[test]
    fn bits_are_independent() {
        for (i, f) in Feature::ALL.into_iter().enumerate() {
            assert_eq!(f.bit(), 1 << i);
            let only = ProfileOptions::from(f);
            assert_eq!(only.features().collect::<Vec<_>>(), vec![f]);
            assert_eq!((ProfileOptions::ALL - f).features().count(), 6);
            assert!(!(ProfileOptions::ALL - f).contains(f));
        }
        assert_eq!(ProfileOptions::all_combinations().count(), 128);
        assert_eq!(ProfileOptions::from_bits(0x80), None);
        assert_eq!(ProfileOptions::from_bits(0x7f), Some(ProfileOptions::ALL));
        assert_eq!(!ProfileOptions::ALL, ProfileOptions::NONE);
    }

    #[test]
    fn names_round_trip() {
        for o in ProfileOptions::all_combinations() {
            assert_eq!(o.to_string().parse::<ProfileOptions>(), Ok(o));
        }
        assert_eq!("device_sync, timing".parse(), Ok(Feature::DeviceSync | Feature::Timing));
        assert_eq!("all".parse(), Ok(ProfileOptions::ALL));
        assert_eq!("".parse(), Ok(ProfileOptions::NONE));
        assert_eq!("timing,memory".parse::<ProfileOptions>(), Err(UnknownFeature { name: "memory".into() }));
    }
}
