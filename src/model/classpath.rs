//! Class path entries. (being written)

/// Class bytes and package listings of the JDK's own modules.
pub trait JdkClasses {
    fn class_bytes(&mut self, binary_name: &str) -> anyhow::Result<Option<Vec<u8>>>;
    /// Binary names of the JDK classes whose name starts with `package_prefix.`.
    fn list_classes(&mut self, package_prefix: &str) -> anyhow::Result<Vec<String>>;
}
