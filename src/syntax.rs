//! Syntax: the pest grammar in `grammar/meeple.pest`, and its conversion into
//! the owned [`ast`]. pest types never leave this module.

pub mod ast;
mod parse;

pub(crate) use parse::parse_file;
pub(crate) use parse::STATEMENTS;
