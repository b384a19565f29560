//! Barrier commands in a cache-tiling pipeline (SPEC section 5, BR-1..BR-9): the tiling unit
//! that bins primitives per cache tile and places barriers in its batches, PROP's barrier
//! flags, the back end's barrier counter, and the top block composing them for `PIPES`
//! screen-space pipelines.
//!
//! | block | what | SPEC |
//! | --- | --- | --- |
//! | [`item::ScreenItem`] | the word of a screen-space pipeline: primitive entry or barrier | BR-1 |
//! | [`tiling_unit::TilingUnit`] | bins per cache tile, flushes, places tiled barriers | BR-3, BR-4, BR-5 |
//! | [`prop::Prop`] | barrier flags (non-tiled, per cache tile), hold queue, release | BR-4..BR-7 |
//! | [`barrier_counter::BarrierCounter`] | back end: counts barriers per cache tile, sends release | BR-4, BR-5 |
//! | [`barrier_cluster::BarrierCluster`] | the top block: `PIPES` tiling units and PROPs, one back end | BR-1 |
pub mod barrier_cluster;
pub mod barrier_counter;
pub mod item;
pub mod prop;
pub mod tiling_unit;
