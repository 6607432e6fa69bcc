pub mod analyse;
pub mod check;
pub mod fit;
pub mod lsp;
pub mod predict;
pub mod source;
pub mod stoex;
pub mod validate;
