//! Emission: the image laid out, and what a translation tells its reader (the map, the
//! listing, the symbolic listing, and reading a listing back).

pub mod image;
pub mod listing;
pub mod report;
pub mod symbolic;
