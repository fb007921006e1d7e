//! The research drivers: programs of many simulations built on the model and its projections.
//! The papers' experiments (`experiment`), correlation with GPGPU-Sim (`correlate`), the
//! standard benchmark (`bench`) and side-by-side runs (`compare`).

pub mod bench;
pub mod compare;
pub mod correlate;
pub mod experiment;
