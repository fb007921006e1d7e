//! Simulator configuration (placeholder until the configuration module lands).

/// The whole simulator configuration.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Config {
    /// Number of streaming multiprocessors.
    pub num_sms: u32,
}
