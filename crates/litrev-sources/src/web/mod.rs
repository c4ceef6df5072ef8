//! Web pages a person names (grey literature: reports, agency pages, blog posts): the page's
//! readable text, found as Mozilla's Readability finds it (dom_smoothie), read into a [`Work`]
//! of kind `webpage` known by its address.
//!
//! [`Work`]: litrev_model::Work

mod page;
mod result;
mod robots;

pub use page::{
    MAX_PAGE_BYTES, PAGE_TIME_LIMIT, PAGE_TYPES, ReadPage, host_of, read_page, read_page_within,
};
pub(crate) use page::{collapse, iso_date, year_of};
pub use result::SEP_NAME;
pub(crate) use result::WebResult;
pub use robots::{ROBOTS_AGENT, robots_allow, robots_url};
