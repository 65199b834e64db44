//! The model. (being written)
pub struct Model;
