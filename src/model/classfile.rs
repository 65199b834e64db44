//! Class-file reader. (being written)
