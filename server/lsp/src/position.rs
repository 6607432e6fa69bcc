//! Positions at the edge: LSP counts UTF-16 code units within a line; everything inside Beagle
//! counts bytes. These conversions are the only place the two meet.

use ropey::Rope;
use tower_lsp_server::ls_types::{Position, Range};

/// UTF-16 length of line `line` without its line break.
fn line_len_utf16(rope: &Rope, line: usize) -> usize {
    let slice = rope.line(line);
    let mut len = slice.len_chars();
    while len > 0 && matches!(slice.char(len - 1), '\n' | '\r') {
        len -= 1;
    }
    slice.char_to_utf16_cu(len)
}

/// The byte offset of `pos`. A character past the line's end means the end of the line, a line
/// past the last means the end of the text (what the protocol asks of servers).
pub fn offset(rope: &Rope, pos: Position) -> usize {
    let line = pos.line as usize;
    if line >= rope.len_lines() {
        return rope.len_bytes();
    }
    let cu = (pos.character as usize).min(line_len_utf16(rope, line));
    let line_char = rope.line_to_char(line);
    let char_in_line = rope.line(line).utf16_cu_to_char(cu);
    rope.char_to_byte(line_char + char_in_line)
}

/// The position of byte `offset` (inside a character: that character's start).
pub fn position(rope: &Rope, offset: usize) -> Position {
    let offset = offset.min(rope.len_bytes());
    let ch = rope.byte_to_char(offset);
    let line = rope.char_to_line(ch);
    let line_char = rope.line_to_char(line);
    let cu = rope.char_to_utf16_cu(ch) - rope.char_to_utf16_cu(line_char);
    Position::new(line as u32, cu as u32)
}

pub fn range(rope: &Rope, span: beagle_pcm::Span) -> Range {
    Range::new(position(rope, span.start as usize), position(rope, span.end as usize))
}

/// The byte range of an LSP range (start and end ordered).
pub fn byte_range(rope: &Rope, range: Range) -> std::ops::Range<usize> {
    let (a, b) = (offset(rope, range.start), offset(rope, range.end));
    a.min(b)..a.max(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_columns_count_surrogate_pairs_twice() {
        // "é" is 2 bytes and 1 code unit; "𝄞" is 4 bytes and 2 code units.
        let rope = Rope::from_str("a\u{e9}\u{1d11e}b\r\nx\ny");
        assert_eq!(offset(&rope, Position::new(0, 0)), 0);
        assert_eq!(offset(&rope, Position::new(0, 2)), 3);
        assert_eq!(offset(&rope, Position::new(0, 4)), 7);
        assert_eq!(offset(&rope, Position::new(0, 5)), 8);
        // Past the end of the line: the line's end, not into the next line.
        assert_eq!(offset(&rope, Position::new(0, 99)), 8);
        assert_eq!(offset(&rope, Position::new(1, 0)), 10);
        assert_eq!(offset(&rope, Position::new(9, 0)), rope.len_bytes());
        assert_eq!(position(&rope, 7), Position::new(0, 4));
        assert_eq!(position(&rope, 10), Position::new(1, 0));
        assert_eq!(position(&rope, 13), Position::new(2, 1));
        // A byte inside "𝄞" maps to its start.
        assert_eq!(position(&rope, 5), Position::new(0, 2));
        for b in [0, 1, 3, 7, 8, 10, 11, 12, 13] {
            assert_eq!(offset(&rope, position(&rope, b)), b);
        }
    }

    #[test]
    fn unicode_line_separators_are_not_line_breaks() {
        let rope = Rope::from_str("a\u{2028}b\nc");
        assert_eq!(position(&rope, 5), Position::new(0, 3));
        assert_eq!(offset(&rope, Position::new(1, 0)), 6);
    }
}
