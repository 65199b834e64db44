//! Descriptor and generic signature parsing (JVMS 4.3, 4.7.9.1). (being written)
