//! Which `int` parameters size an allocation, read from real bytecode (the JDK's and the
//! gen subjects'): the reading `gen` uses to give such parameters small numbers from the
//! start (`instrument::sizes`). Sizes must be found where an array is made from the
//! parameter, directly or through callees, and not where the number is an index or an
//! element.

use crate::support::{compiled, model::jdk};
use jforge::instrument::sizes::Sizes;
use jforge::model::classpath::{ClassPath, JdkClasses};

/// The sizing flags of each parameter of `class.name desc`, classes from the gen subjects
/// and the JDK.
fn sizing(sizes: &mut Sizes, class: &str, name: &str, desc: &str) -> Vec<bool> {
    let cp = ClassPath::new(&[compiled("gen")]).unwrap();
    let mut jdk = jdk();
    let mut bytes = |n: &str| cp.find(n).unwrap().or_else(|| jdk.class_bytes(n).unwrap());
    sizes.sizing_params(class, name, desc, &mut bytes)
}

#[test]
fn jdk_capacities_are_sizes_and_indices_are_not() {
    let mut s = Sizes::default();
    // `new Object[initialCapacity]`
    assert_eq!(
        sizing(&mut s, "java.util.ArrayList", "<init>", "(I)V"),
        [true]
    );
    // through this(capacity, false): the callee's size is not its last argument
    assert_eq!(
        sizing(
            &mut s,
            "java.util.concurrent.ArrayBlockingQueue",
            "<init>",
            "(I)V"
        ),
        [true]
    );
    // an index and an element
    assert_eq!(
        sizing(
            &mut s,
            "java.util.ArrayList",
            "get",
            "(I)Ljava/lang/Object;"
        ),
        [false]
    );
    assert_eq!(
        sizing(
            &mut s,
            "java.util.ArrayList",
            "set",
            "(ILjava/lang/Object;)Ljava/lang/Object;"
        ),
        [false, false]
    );
    // Arrays.copyOf(original, newLength): the length, not the array
    assert_eq!(
        sizing(&mut s, "java.util.Arrays", "copyOf", "([II)[I"),
        [false, true]
    );
    // HashMap stores its capacity and allocates at the first put: not seen here (learned
    // from the first OutOfMemoryError, random::sized_makers)
    assert_eq!(
        sizing(&mut s, "java.util.HashMap", "<init>", "(I)V"),
        [false]
    );
}

#[test]
fn subject_sizes_through_new_arrays_and_the_jdk() {
    let mut s = Sizes::default();
    assert_eq!(sizing(&mut s, "hostile.Sized", "copies", "(I)[J"), [true]);
    assert_eq!(sizing(&mut s, "hostile.Sized", "add", "(J)V"), [false]);
    assert_eq!(
        sizing(
            &mut s,
            "hostile.Capacity",
            "withCapacity",
            "(I)Ljava/util/List;"
        ),
        [true]
    );
    assert_eq!(sizing(&mut s, "hostile.Capacity", "tier", "(I)I"), [true]);
    // stored in a field, allocated by add
    assert_eq!(
        sizing(&mut s, "hostile.Capacity", "<init>", "(I)V"),
        [false]
    );
    assert_eq!(
        sizing(&mut s, "hostile.Capacity", "missing", "(I)V"),
        [false]
    );
}
