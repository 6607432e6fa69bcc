pub mod check;
pub mod stoex;
