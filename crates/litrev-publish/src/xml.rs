//! Escaping text for XML and SVG.

/// Escapes `&`, `<`, `>` and `"`, and drops control characters XML forbids.
pub fn escape(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_control() || matches!(c, '\n' | '\t'))
        .collect::<String>()
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
