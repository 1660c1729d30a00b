//! Where frames, frame slots and saves go: static frames, their overlay, slots at fixed
//! addresses and in zero page, and the saves a caller needs.

pub mod frame_plan;
pub mod frame_reach;
pub mod frame_slots;
pub mod frame_steps;
pub mod overlay;
pub mod saves;
pub mod sink_saves;
pub mod static_frames;
pub mod zp_slots;
