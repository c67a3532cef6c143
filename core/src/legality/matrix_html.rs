//! The legality matrix as a standalone HTML page: one row per opcode, one
//! column per type, each cell coloured by action, with the rule trail that
//! decided it in the cell's tooltip.

use super::LegalizeAction;
use super::info::LegalizerInfo;
use super::matrix::{LegalityMatrix, column_query_types};
use super::query::LegalityQuery;
use std::fmt::Write;

/// Background colour and legend name of each action.
fn style(action: LegalizeAction) -> (&'static str, &'static str) {
    match action {
        LegalizeAction::Legal => ("#b7e4b0", "legal"),
        LegalizeAction::WidenScalar => ("#cfe2ff", "widen scalar"),
        LegalizeAction::NarrowScalar => ("#9ec5fe", "narrow scalar"),
        LegalizeAction::FewerElements => ("#e0cffc", "fewer elements"),
        LegalizeAction::MoreElements => ("#c5b3e6", "more elements"),
        LegalizeAction::Bitcast => ("#ffe5d0", "bitcast"),
        LegalizeAction::Lower => ("#fff3cd", "lower"),
        LegalizeAction::Libcall => ("#ffda6a", "libcall"),
        LegalizeAction::Custom => ("#a6e9d5", "custom"),
        LegalizeAction::Unsupported | LegalizeAction::NotFound => ("#f1aeb5", "unsupported"),
        LegalizeAction::UseLegacyRules => ("#dee2e6", "no rules"),
    }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

impl LegalityMatrix {
    /// A self-contained HTML page titled `title`; `info` is asked again for
    /// each cell's rule trail, shown on hover.
    pub fn render_html(&self, info: &LegalizerInfo, title: &str) -> String {
        let mut out = String::new();
        let _ = write!(
            out,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n<style>\n\
             body {{ font-family: system-ui, sans-serif; margin: 1.5em; }}\n\
             table {{ border-collapse: collapse; font-size: 13px; }}\n\
             th, td {{ border: 1px solid #adb5bd; padding: 3px 6px; text-align: center; }}\n\
             th.op {{ text-align: left; font-family: monospace; }}\n\
             td {{ font-family: monospace; cursor: help; }}\n\
             .legend span {{ display: inline-block; padding: 2px 8px; margin: 2px; border: 1px solid #adb5bd; }}\n\
             </style>\n</head>\n<body>\n<h1>{}</h1>\n<p class=\"legend\">",
            escape(title),
            escape(title)
        );
        let mut seen = Vec::new();
        for row in &self.rows {
            for step in &row.cells {
                let (colour, name) = style(step.action);
                if !seen.contains(&name) {
                    seen.push(name);
                    let _ = write!(out, "<span style=\"background:{colour}\">{name}</span>");
                }
            }
        }
        out.push_str("</p>\n<table id=\"matrix\">\n<thead><tr><th>opcode</th>");
        for ty in &self.types {
            let _ = write!(out, "<th>{}</th>", escape(&ty.to_string()));
        }
        out.push_str("</tr></thead>\n<tbody>\n");
        for row in &self.rows {
            let _ = write!(out, "<tr><th class=\"op\">{}</th>", row.opcode.name());
            for (ty, step) in self.types.iter().zip(&row.cells) {
                let types = column_query_types(info, row.opcode, *ty);
                let trail = info.explain(&LegalityQuery::new(row.opcode, &types)).to_string();
                let (colour, _) = style(step.action);
                let _ = write!(
                    out,
                    "<td style=\"background:{colour}\" title=\"{}\">{}</td>",
                    escape(trail.trim_end()),
                    escape(&LegalityMatrix::cell_text(step))
                );
            }
            out.push_str("</tr>\n");
        }
        out.push_str("</tbody>\n</table>\n</body>\n</html>\n");
        out
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
        assert!(html.contains("background:#b7e4b0"), "a legal cell");
        assert!(html.contains("G_ADD(s8): rule"), "the trail of G_ADD s8 is in a tooltip");
        assert!(html.contains("background:#ffda6a"), "a libcall cell for G_SDIV");
        assert_eq!(html.matches("<tr><th class=\"op\">").count(), 2);
    }
}
