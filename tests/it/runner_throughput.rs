//! Throughput print: `cargo test --release --test runner_throughput -- --ignored --nocapture throughput`.

use crate::support::runner as common;

use common::*;
use jforge::runner::Pool;
use jforge::sequence::OpTable;
use std::time::{Duration, Instant};

#[test]
#[ignore]
fn throughput() {
    let _g = serial();
    let mut t = OpTable::default();
    let o = object();
    let list_new = ctor(&mut t, "java.util.ArrayList", "()V", vec![]);
    let list_add = method(
        &mut t,
        "java.util.ArrayList",
        "add",
        "(Ljava/lang/Object;)Z",
        vec![o.clone()],
        boolean(),
    );
    let list_size = method(&mut t, "java.util.ArrayList", "size", "()I", vec![], int());
    let tree_new = ctor(&mut t, "java.util.TreeMap", "()V", vec![]);
    let tree_put = method(
        &mut t,
        "java.util.TreeMap",
        "put",
        "(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;",
        vec![o.clone(), o.clone()],
        Some(o.clone()),
    );
    let tree_first = method(
        &mut t,
        "java.util.TreeMap",
        "firstKey",
        "()Ljava/lang/Object;",
        vec![],
        Some(o),
    );
    let batch = |k: usize| {
        (0..1000)
            .map(|i| {
                let s = vec![
                    call(list_new, &[]),
                    lit_str(&format!("s{}", (i + k) % 17)),
                    call(list_add, &[0, 1]),
                    call(list_add, &[0, 1]),
                    call(list_size, &[0]),
                    call(tree_new, &[]),
                    call(tree_put, &[5, 1, 0]),
                    call(tree_first, &[5]),
                    call(tree_put, &[5, 7, 1]),
                    call(list_size, &[0]),
                ];
                let mut r = req(s);
                r.contract_values = vec![0];
                r
            })
            .collect::<Vec<_>>()
    };
    for workers in [1, 2] {
        let mut pool = Pool::start(config(workers, Duration::from_secs(5), 256, vec![])).unwrap();
        pool.register(&t).unwrap();
        for k in 0..3 {
            pool.execute(batch(k)).unwrap(); // warm-up (JIT)
        }
        let t0 = Instant::now();
        let mut n = 0;
        for k in 0..20 {
            n += pool.execute(batch(k)).unwrap().len();
        }
        let dt = t0.elapsed().as_secs_f64();
        let st = pool.stats();
        println!(
            "throughput: {workers} worker(s): {n} sequences of 10 statements in {dt:.2}s = {:.0} seq/s (peak RSS {:?} KiB)",
            n as f64 / dt,
            st.worker_peak_rss_kb
        );
        pool.shutdown();
    }
}
