//! Binding strength of each grammar level, loosest first: one table for the parser and the
//! printer, so that what one reads the other writes.

pub const IF_ELSE: u8 = 0;
pub const AND: u8 = 1;
pub const OR: u8 = 2;
pub const COMPARE: u8 = 3;
pub const SUM: u8 = 4;
pub const PRODUCT: u8 = 5;
pub const POWER: u8 = 6;
pub const UNARY: u8 = 7;
pub const ATOM: u8 = 8;
