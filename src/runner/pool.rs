//! (being written)
pub struct Pool;
pub struct PoolConfig;
pub struct PoolStats;
