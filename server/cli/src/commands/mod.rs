pub mod check;
pub mod fit;
pub mod stoex;
