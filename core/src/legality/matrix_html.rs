//! The legality matrix as a standalone HTML page: one row per opcode, one
//! column per type, each cell coloured by action, with the rule trail that
//! decided it in the cell's tooltip.

use super::LegalizeAction;
use super::action::LegalizeStep;
use super::info::LegalizerInfo;
use super::matrix::{LegalityMatrix, column_query_types};
use super::query::LegalityQuery;
use std::fmt::Write;

/// Background colour and class name (also the legend's words) of each
/// action.
fn style(action: LegalizeAction) -> (&'static str, &'static str) {
    match action {
        LegalizeAction::Legal => ("#b7e4b0", "legal"),
        LegalizeAction::WidenScalar => ("#cfe2ff", "widen-scalar"),
        LegalizeAction::NarrowScalar => ("#8bb9fe", "narrow-scalar"),
        LegalizeAction::FewerElements => ("#e0cffc", "fewer-elements"),
        LegalizeAction::MoreElements => ("#c5b3e6", "more-elements"),
        LegalizeAction::Bitcast => ("#ffd8b5", "bitcast"),
        LegalizeAction::Lower => ("#fff3cd", "lower"),
        LegalizeAction::Libcall => ("#ffda6a", "libcall"),
        LegalizeAction::Custom => ("#a6e9d5", "custom"),
        LegalizeAction::Unsupported => ("#f1aeb5", "unsupported"),
        LegalizeAction::NotFound => ("#f1aeb5", "not-found"),
        LegalizeAction::UseLegacyRules => ("#dee2e6", "no-rules"),
    }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// The page's style sheet, without the per-action colours.
const CSS: &str = "\
body { font-family: system-ui, sans-serif; margin: 1.5em; color: #212529; }
h1 { font-size: 1.4em; margin-bottom: 0.3em; }
p.help { margin: 0.3em 0 0.8em; color: #495057; max-width: 60em; }
.legend span { display: inline-block; padding: 2px 8px; margin: 2px; border: 1px solid #adb5bd; border-radius: 3px; }
.legend b { font-family: monospace; margin-right: 0.4em; }
table { border-collapse: separate; border-spacing: 0; font-size: 13px; }
th, td { border-right: 1px solid #adb5bd; border-bottom: 1px solid #adb5bd; padding: 3px 8px; text-align: center; white-space: nowrap; }
thead th { position: sticky; top: 0; background: #e9ecef; border-top: 1px solid #adb5bd; z-index: 2; }
th.op { position: sticky; left: 0; background: #f8f9fa; text-align: left; font-family: monospace; border-left: 1px solid #adb5bd; z-index: 1; }
thead th.op { z-index: 3; }
td { font-family: monospace; cursor: help; }
tbody tr:hover th.op { background: #ffe69c; }
td:hover { outline: 2px solid #212529; outline-offset: -2px; }
";

impl LegalityMatrix {
    /// A self-contained HTML page titled `title`: one row per opcode, one
    /// column per type, each cell's class (and colour) its action, and
    /// `info`'s rule trail for the cell in its `title` (shown on hover).
    pub fn render_html(&self, info: &LegalizerInfo, title: &str) -> String {
        let title = escape(title);
        let mut out = String::new();
        let _ = write!(
            out,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{title}</title>\n<style>\n{CSS}"
        );
        let shown: Vec<LegalizeAction> = LegalizeAction::ALL.into_iter().filter(|&a| self.has(a)).collect();
        for &action in &shown {
            let (colour, class) = style(action);
            let _ = writeln!(out, "td.{class}, .legend .{class} {{ background: {colour}; }}");
        }
        let _ = write!(
            out,
            "</style>\n</head>\n<body>\n<h1>{title}</h1>\n<p class=\"help\">A cell is the rules' answer for the \
             row's opcode with its type indices set to the column's type (pointer operands stay p0): the action, \
             the type index it changes if not 0, and the new type. Hover a cell for the rule trail.</p>\n\
             <p class=\"legend\">"
        );
        for &action in &shown {
            let (_, class) = style(action);
            let letter = LegalityMatrix::cell_text(&LegalizeStep::new(action));
            let _ = write!(out, "<span class=\"{class}\"><b>{letter}</b>{}</span>", class.replace('-', " "));
        }
        out.push_str("</p>\n<table id=\"matrix\">\n<thead><tr><th class=\"op\">opcode</th>");
        for ty in &self.types {
            let _ = write!(out, "<th>{}</th>", escape(&ty.to_string()));
        }
        out.push_str("</tr></thead>\n<tbody>\n");
        for row in &self.rows {
            let _ = write!(out, "<tr><th class=\"op\">{}</th>", row.opcode.name());
            for (ty, step) in self.types.iter().zip(&row.cells) {
                let types = column_query_types(info, row.opcode, *ty);
                let trail = info.explain(&LegalityQuery::new(row.opcode, &types)).to_string();
                let _ = write!(
                    out,
                    "<td class=\"{}\" title=\"{}\">{}</td>",
                    style(step.action).1,
                    escape(trail.trim_end()),
                    escape(&LegalityMatrix::cell_text(step))
                );
            }
            out.push_str("</tr>\n");
        }
        out.push_str("</tbody>\n</table>\n</body>\n</html>\n");
        out
    }

    /// Whether some cell's action is `action`.
    fn has(&self, action: LegalizeAction) -> bool {
        self.rows.iter().any(|row| row.cells.iter().any(|step| step.action == action))
    }
}

#[cfg(test)]
mod tests {
    use crate::legality::examples::toy32;
    use crate::legality::matrix::LegalityMatrix;
    use crate::opcode::Opcode;
    use crate::ty::Llt;

    #[test]
    fn cells_carry_colour_and_rule_trail() {
        let info = toy32();
        let types = [Llt::scalar(8), Llt::scalar(32), Llt::scalar(64)];
        let matrix = LegalityMatrix::build(&info, &[Opcode::G_ADD, Opcode::G_SDIV], &types);
        let html = matrix.render_html(&info, "toy32 <rules>");
        assert!(html.starts_with("<!DOCTYPE html>"));
        assert!(html.contains("<title>toy32 &lt;rules&gt;</title>"));
        assert!(html.contains("<th class=\"op\">G_ADD</th>"));
        assert!(html.contains("td.legal, .legend .legal { background: #b7e4b0; }"), "legal cells are green");
        assert!(html.contains("<td class=\"legal\" title=\"G_ADD(s32): rule 0"), "a legal cell with its trail");
        assert!(html.contains("<td class=\"widen-scalar\" title=\"G_ADD(s8): rule"), "G_ADD s8's trail on hover");
        assert!(html.contains("<td class=\"libcall\" title=\"G_SDIV(s32)"), "a libcall cell for G_SDIV");
        assert!(html.contains("<span class=\"libcall\"><b>Lc</b>libcall</span>"), "the legend names the letters");
        assert!(!html.contains(".bitcast"), "only actions that occur are in the legend");
        assert_eq!(html.matches("<tr><th class=\"op\">G_").count(), 2);
    }
}
