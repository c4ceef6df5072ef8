//! robots.txt (RFC 9309), read with `texting_robots`: whether a site lets litrev fetch a page.

/// The product token litrev's fetches of pages go by in robots.txt groups.
pub const ROBOTS_AGENT: &str = "litrev";

/// Where a page's site keeps its robots.txt: the scheme, host and port of `address`.
pub fn robots_url(address: &str) -> Option<String> {
    let (scheme, _) = address.split_once("://")?;
    let host = super::host_of(address)?;
    Some(format!("{scheme}://{host}/robots.txt"))
}

/// Whether a site's robots.txt lets litrev fetch `address`; a file that does not parse allows
/// everything, as a missing one does.
pub fn robots_allow(robots_txt: &[u8], address: &str) -> bool {
    texting_robots::Robot::new(ROBOTS_AGENT, robots_txt)
        .map_or(true, |robot| robot.allowed(address))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_site_may_keep_litrev_out_of_a_folder() {
        let txt = b"User-agent: *\nDisallow: /private/\n\nUser-agent: litrev\nDisallow: /drafts/\n";
        assert!(robots_allow(txt, "https://example.org/report.html"));
        assert!(
            !robots_allow(txt, "https://example.org/drafts/a.html"),
            "litrev's own group"
        );
        assert!(
            robots_allow(txt, "https://example.org/private/a.html"),
            "a group of its own replaces the * group"
        );
        assert!(robots_allow(b"\xff\xfe garbage", "https://example.org/x"));
        assert_eq!(
            robots_url("http://127.0.0.1:8080/a/b?c").as_deref(),
            Some("http://127.0.0.1:8080/robots.txt")
        );
    }
}
