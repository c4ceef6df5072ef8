//! `graph.graphml`: the corpus citation graph for Gephi, VOSviewer, Cytoscape or networkx.

use std::collections::BTreeMap;
use std::fmt::Write;

use litrev_model::{Citation, Work, WorkId};

use crate::xml::escape;

/// One node of the graph.
#[derive(Debug, Clone, PartialEq)]
pub struct GraphNode<'a> {
    /// The work (a stub has only its id).
    pub work: &'a Work,
    /// Theme label, for included works that have one.
    pub theme: Option<&'a str>,
    /// Whether the work is in the review.
    pub included: bool,
    /// Citations it receives inside the corpus.
    pub corpus_citations: usize,
}

/// The graph as GraphML: nodes carry title, year, theme, citations (in the corpus and in all
/// of the source) and whether they are included; edges are citations (citing → cited).
pub fn graphml(nodes: &[GraphNode<'_>], edges: &[Citation]) -> String {
    let mut out = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n\
         <key id=\"title\" for=\"node\" attr.name=\"title\" attr.type=\"string\"/>\n\
         <key id=\"year\" for=\"node\" attr.name=\"year\" attr.type=\"int\"/>\n\
         <key id=\"theme\" for=\"node\" attr.name=\"theme\" attr.type=\"string\"/>\n\
         <key id=\"included\" for=\"node\" attr.name=\"included\" attr.type=\"boolean\"/>\n\
         <key id=\"corpus_citations\" for=\"node\" attr.name=\"corpus_citations\" attr.type=\"int\"/>\n\
         <key id=\"citations\" for=\"node\" attr.name=\"citations\" attr.type=\"int\"/>\n\
         <graph id=\"corpus\" edgedefault=\"directed\">\n",
    );
    let mut known: BTreeMap<WorkId, ()> = BTreeMap::new();
    for node in nodes {
        let id = node.work.id();
        known.insert(id.clone(), ());
        let _ = writeln!(out, "<node id=\"{}\">", escape(&id.to_string()));
        if let Some(title) = &node.work.title {
            let _ = writeln!(out, "  <data key=\"title\">{}</data>", escape(title));
        }
        if let Some(year) = node.work.year {
            let _ = writeln!(out, "  <data key=\"year\">{year}</data>");
        }
        let _ = writeln!(
            out,
            "  <data key=\"theme\">{}</data>",
            escape(node.theme.unwrap_or(""))
        );
        let _ = writeln!(out, "  <data key=\"included\">{}</data>", node.included);
        let _ = writeln!(
            out,
            "  <data key=\"corpus_citations\">{}</data>",
            node.corpus_citations
        );
        if let Some(count) = node.work.cited_by_count {
            let _ = writeln!(out, "  <data key=\"citations\">{count}</data>");
        }
        out.push_str("</node>\n");
    }
    for (index, edge) in edges
        .iter()
        .filter(|edge| known.contains_key(&edge.citing) && known.contains_key(&edge.cited))
        .enumerate()
    {
        let _ = writeln!(
            out,
            "<edge id=\"e{index}\" source=\"{}\" target=\"{}\"/>",
            escape(&edge.citing.to_string()),
            escape(&edge.cited.to_string())
        );
    }
    out.push_str("</graph>\n</graphml>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_nodes_with_attributes_and_edges_between_known_nodes() {
        let mut a = Work::stub("W1".parse().expect("id"));
        a.title = Some("Cats & <dogs>".into());
        a.year = Some(2001);
        let b = Work::stub("W2".parse().expect("id"));
        let nodes = [
            GraphNode {
                work: &a,
                theme: Some("Pets"),
                included: true,
                corpus_citations: 1,
            },
            GraphNode {
                work: &b,
                theme: None,
                included: false,
                corpus_citations: 0,
            },
        ];
        let edges = [
            Citation {
                citing: "W2".parse().expect("id"),
                cited: "W1".parse().expect("id"),
            },
            Citation {
                citing: "W2".parse().expect("id"),
                cited: "W9".parse().expect("id"),
            },
        ];
        let xml = graphml(&nodes, &edges);
        assert!(xml.contains("<data key=\"title\">Cats &amp; &lt;dogs&gt;</data>"));
        assert!(xml.contains("<edge id=\"e0\" source=\"W2\" target=\"W1\"/>"));
        assert!(!xml.contains("W9"), "edges to unknown nodes are left out");
        assert_eq!(xml.matches("<node ").count(), 2);
    }
}
