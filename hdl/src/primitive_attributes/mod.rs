//! Primitive-specific attributes (SPEC section 6, PA-1..PA-9): the blocks after the geometry
//! shader that multicast a primitive to the viewports of its 16-bit mask with a layer offset
//! (in strict primitive order or in viewport order over a batch), swizzle its vertex positions
//! per viewport, and keep the viewport/clip unit's vertex cache with a unique provoking vertex
//! per primitive.
//!
//! | block | what | SPEC |
//! | --- | --- | --- |
//! | [`item`] | vertex position (four 32-bit lanes), widths | PA-2, PA-5 |
pub mod cache_bank;
pub mod item;
pub mod lowest_viewport;
pub mod order_sequencer;
pub mod pa_cluster;
pub mod provoking_vertex_cache;
pub mod swizzle_adapter;
pub mod viewport_multicast;
pub mod viewport_swizzle;
