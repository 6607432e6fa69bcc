pub mod analyse;
pub mod check;
pub mod fit;
pub mod lsp;
pub mod stoex;
