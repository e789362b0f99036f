//! What a reader of `.stmt` text may know beyond the text: the pipeline's Funcs, images and
//! buffers. The text omits call types and the types of names whose types "can be deduced";
//! an environment settles them where the text cannot.

use rustc_hash::FxHashMap;

use crate::types::Type;

/// Optional knowledge about the names in a `.stmt` file.
#[derive(Clone, Debug, Default)]
pub struct ParseEnv {
    /// Funcs of the pipeline and the types of their values (one per tuple element).
    pub funcs: FxHashMap<String, Vec<Type>>,
    /// Input images (buffer parameters and embedded buffers) and their element types.
    pub images: FxHashMap<String, Type>,
    /// Element types of flat buffers loaded from or stored to by name.
    pub buffers: FxHashMap<String, Type>,
}

impl ParseEnv {
    /// An empty environment: everything is recovered from the text alone.
    pub fn new() -> ParseEnv {
        ParseEnv::default()
    }
    /// Declares a Func with its value types.
    pub fn with_func(mut self, name: &str, types: Vec<Type>) -> ParseEnv {
        self.funcs.insert(name.to_owned(), types);
        self
    }
    /// Declares an input image with its element type.
    pub fn with_image(mut self, name: &str, ty: Type) -> ParseEnv {
        self.images.insert(name.to_owned(), ty);
        self
    }
    /// Declares a buffer's element type.
    pub fn with_buffer(mut self, name: &str, ty: Type) -> ParseEnv {
        self.buffers.insert(name.to_owned(), ty);
        self
    }
}
