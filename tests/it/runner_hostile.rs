//! Hostile code under test: each test runs [ok, hostile, ok, ok] in one worker and checks that
//! the hostile sequence gets the right outcome on the right statement, the sequences after it
//! still run normally (in a restarted worker, or the same one when it survived an
//! OutOfMemoryError or StackOverflowError), and no JVM is left behind.

use crate::support::runner as common;

use common::*;
use jforge::model::{JType, Prim};
use jforge::runner::{CrashKind, Observed, Pool, SeqResult, StmtOutcome};
use jforge::sequence::{OpTable, Value};
use std::time::{Duration, Instant};

fn run_hostile(
    name: &str,
    desc: &str,
    timeout: Duration,
    heap_mb: u32,
    with_arg: bool,
) -> (Vec<SeqResult>, jforge::runner::PoolStats) {
    let _g = serial();
    let mut t = OpTable::default();
    let ok = smethod(&mut t, "rsub.Hostile", "ok", "()I", vec![], int());
    let ret = if desc.ends_with('V') { None } else { int() };
    let params = if with_arg {
        vec![JType::Prim(Prim::Int)]
    } else {
        vec![]
    };
    let bad = smethod(&mut t, "rsub.Hostile", name, desc, params, ret);
    let mut pool = Pool::start(config(1, timeout, heap_mb, vec![subjects()])).unwrap();
    assert!(pool.register(&t).unwrap().is_empty());
    let good = || req(vec![lit_int(0), call(ok, &[])]);
    let hostile = if with_arg {
        req(vec![lit_int(1), call(bad, &[0]), call(ok, &[])])
    } else {
        req(vec![lit_int(1), call(bad, &[]), call(ok, &[])])
    };
    let t0 = Instant::now();
    let res = pool.execute(vec![good(), hostile, good(), good()]).unwrap();
    eprintln!("{name}: {:?}", t0.elapsed());
    // a further batch works too
    let more = pool.execute(vec![good()]).unwrap();
    assert_eq!(
        more[0].outcomes[1],
        StmtOutcome::Normal(Observed::Value(Value::Int(42)))
    );
    let stats = pool.stats();
    pool.shutdown();
    assert!(
        worker_children().is_empty(),
        "JVMs left behind: {:?}",
        worker_children()
    );
    for i in [0, 2, 3] {
        assert_eq!(
            res[i].outcomes[1],
            StmtOutcome::Normal(Observed::Value(Value::Int(42))),
            "request {i}"
        );
    }
    // the literal before the hostile call was recorded before the worker died
    assert_eq!(
        res[1].outcomes[0],
        StmtOutcome::Normal(Observed::Value(Value::Int(1)))
    );
    (res, stats)
}

fn assert_blamed(res: &[SeqResult], expected: StmtOutcome) {
    assert_eq!(res[1].outcomes[1], expected);
    assert_eq!(res[1].outcomes[2], StmtOutcome::NotRun);
}

#[test]
fn system_exit() {
    let (res, st) = run_hostile("exit3", "()V", Duration::from_secs(5), 128, false);
    assert_blamed(&res, StmtOutcome::Crash(CrashKind::Exited(Some(3))));
    assert_eq!(st.restarts, 1);
    assert_eq!(st.crashes.get(&CrashKind::Exited(Some(3))), Some(&1));
}

#[test]
fn runtime_halt() {
    let (res, _) = run_hostile("halt5", "()V", Duration::from_secs(5), 128, false);
    assert_blamed(&res, StmtOutcome::Crash(CrashKind::Exited(Some(5))));
}

#[test]
fn infinite_loop_times_out() {
    // A loop ignores the interrupt: on JDK 17-19 the watchdog stops it (Thread.stop) and the
    // worker goes on; from JDK 20 (no Thread.stop) the worker halts and is restarted.
    let t0 = Instant::now();
    let (res, st) = run_hostile("loop", "()I", Duration::from_secs(1), 128, false);
    assert_blamed(&res, StmtOutcome::Timeout);
    if jforge::runner::java::find_java(None).unwrap().version < 20 {
        assert_eq!(st.timeouts, 0, "no worker died of it: {st:?}");
        assert_eq!(st.restarts, 0, "{st:?}");
        assert_eq!(st.time.timeouts_survived, 1, "{st:?}");
        assert_eq!(st.time.starts, 1);
    } else {
        assert_eq!(st.timeouts, 1);
    }
    assert!(t0.elapsed() < Duration::from_secs(30));
}

/// A crash the worker survived: the outcome of the statement that threw, no restart, counted
/// as survived and not as a worker death.
fn assert_survived(res: &[SeqResult], st: &jforge::runner::PoolStats, kind: CrashKind) {
    assert_blamed(res, StmtOutcome::Crash(kind.clone()));
    assert!(res[1].survived);
    assert!(res.iter().enumerate().all(|(i, r)| r.survived == (i == 1)));
    assert_eq!(st.restarts, 0);
    assert!(st.crashes.is_empty(), "{:?}", st.crashes);
    assert_eq!(st.time.survived.get(&kind), Some(&1));
    assert_eq!(st.time.starts, 1, "one JVM for the whole run");
}

#[test]
fn out_of_memory_that_frees_its_heap_is_survived() {
    let (res, st) = run_hostile("oom", "()I", Duration::from_secs(20), 64, false);
    assert_survived(&res, &st, CrashKind::OutOfMemory);
}

#[test]
fn one_oversized_allocation_is_survived() {
    let _g = serial();
    let mut t = OpTable::default();
    let alloc = smethod(
        &mut t,
        "rsub.Hostile",
        "alloc",
        "(I)I",
        vec![JType::Prim(Prim::Int)],
        int(),
    );
    let ok = smethod(&mut t, "rsub.Hostile", "ok", "()I", vec![], int());
    let mut pool = Pool::start(config(1, Duration::from_secs(20), 64, vec![subjects()])).unwrap();
    assert!(pool.register(&t).unwrap().is_empty());
    // ok(), then alloc(2^30) (8 GiB), then ok(): the allocation's statement is blamed
    let big = req(vec![
        call(ok, &[]),
        lit_int(1 << 30),
        call(alloc, &[1]),
        call(ok, &[]),
    ]);
    let small = req(vec![lit_int(3), call(alloc, &[0])]);
    let res = pool.execute(vec![big, small]).unwrap();
    let st = pool.stats();
    pool.shutdown();
    assert_eq!(
        res[0].outcomes[2],
        StmtOutcome::Crash(CrashKind::OutOfMemory)
    );
    assert_eq!(
        res[0].outcomes[0],
        StmtOutcome::Normal(Observed::Value(Value::Int(42)))
    );
    assert_eq!(res[0].outcomes[3], StmtOutcome::NotRun);
    assert_eq!(
        res[1].outcomes[1],
        StmtOutcome::Normal(Observed::Value(Value::Int(3)))
    );
    assert_eq!(st.restarts, 0);
    assert_eq!(st.time.survived.get(&CrashKind::OutOfMemory), Some(&1));
}

#[test]
fn out_of_memory_that_keeps_the_heap_full_restarts_the_worker() {
    let (res, st) = run_hostile("oomKept", "()I", Duration::from_secs(20), 64, false);
    assert_blamed(&res, StmtOutcome::Crash(CrashKind::OutOfMemory));
    assert!(!res[1].survived);
    assert_eq!(st.restarts, 1);
    assert_eq!(st.crashes.get(&CrashKind::OutOfMemory), Some(&1));
    assert!(st.time.survived.is_empty());
    assert!(st.time.crashes.contains_key(&CrashKind::OutOfMemory));
}

#[test]
fn a_waiting_call_is_interrupted_at_the_limit_and_the_worker_goes_on() {
    let t0 = Instant::now();
    let (res, st) = run_hostile("nap", "()I", Duration::from_secs(1), 128, false);
    assert_blamed(&res, StmtOutcome::Timeout);
    assert_eq!(st.restarts, 0, "{st:?}");
    assert_eq!(st.timeouts, 0, "no worker died of it: {st:?}");
    assert_eq!(st.time.starts, 1);
    assert!(t0.elapsed() < Duration::from_secs(20));
}

#[test]
fn a_call_that_waits_is_cut_after_200_ms_of_waiting_whatever_the_limit() {
    // napUninterruptibly() parks for a minute and swallows interrupts. With a call limit of
    // 20 s it held the worker 20 s (the limit adapts only after 32 calls); a call that waits
    // uses no CPU, so the watchdog now cuts it after 200 ms of waiting (interrupt, then
    // Thread.stop), and the worker goes on. JDK 20+ cannot stop it: the worker halts.
    let t0 = Instant::now();
    let (res, st) = run_hostile(
        "napUninterruptibly",
        "()I",
        Duration::from_secs(20),
        128,
        false,
    );
    let took = t0.elapsed();
    assert_blamed(&res, StmtOutcome::Timeout);
    if jforge::runner::java::find_java(None).unwrap().version < 20 {
        assert_eq!(st.restarts, 0, "{st:?}");
    }
    assert!(took < Duration::from_secs(8), "{took:?}");
}

#[test]
fn a_contract_check_that_never_ends_is_a_timeout_of_its_statement() {
    // The contracts call toString() on each value; endlessToString()'s never returns. Such a
    // check (guava: toString of a filtered cycle) used to halt the worker (the contracts'
    // calls were not stoppable); now it is stopped like a statement's call, the statement's
    // outcome is a timeout and the worker goes on (JDK 17-19; from 20 it halts).
    let _g = serial();
    let mut t = OpTable::default();
    let ok = smethod(&mut t, "rsub.Hostile", "ok", "()I", vec![], int());
    let endless = smethod(
        &mut t,
        "rsub.Hostile",
        "endlessToString",
        "()Ljava/lang/Object;",
        vec![],
        Some(JType::class("java.lang.Object")),
    );
    let mut checked = req(vec![call(endless, &[])]);
    checked.contract_values = vec![0];
    assert_cut_and_the_worker_goes_on(&t, checked, ok);
}

/// Runs `hung` then a call of `ok` on one worker with a 2 s call limit: the results, how
/// long both took, and the pool's figures.
fn hung_then_ok(
    t: &OpTable,
    hung: jforge::runner::ExecRequest,
    ok: jforge::sequence::OpId,
) -> (Vec<SeqResult>, Duration, jforge::runner::PoolStats) {
    let mut pool = Pool::start(config(1, Duration::from_secs(2), 128, vec![subjects()])).unwrap();
    assert!(pool.register(t).unwrap().is_empty());
    let t0 = Instant::now();
    let res = pool.execute(vec![hung, req(vec![call(ok, &[])])]).unwrap();
    let took = t0.elapsed();
    let st = pool.stats();
    pool.shutdown();
    (res, took, st)
}

/// Runs `hung` (one statement, whose call or check never ends) then a call of `ok` (which
/// returns 42) on one worker: `hung` is a timeout of its statement, and on JDK 17-19 the
/// worker goes on (no restart, no timeout that halts it) and runs `ok`.
fn assert_cut_and_the_worker_goes_on(
    t: &OpTable,
    hung: jforge::runner::ExecRequest,
    ok: jforge::sequence::OpId,
) {
    let (res, took, st) = hung_then_ok(t, hung, ok);
    assert_eq!(res[0].outcomes, vec![StmtOutcome::Timeout]);
    assert!(the_worker_went_on(&res, &st));
    assert!(took < Duration::from_secs(10), "{took:?}");
}

/// Whether the call after the hung one returned 42; on JDK 17-19 also asserts that the
/// worker went on without a restart or a timeout that halts it (false on JDK 20+).
fn the_worker_went_on(res: &[SeqResult], st: &jforge::runner::PoolStats) -> bool {
    assert_eq!(
        res[1].outcomes[0],
        StmtOutcome::Normal(Observed::Value(Value::Int(42)))
    );
    let stoppable = jforge::runner::java::find_java(None).unwrap().version < 20;
    if stoppable {
        assert_eq!(st.restarts, 0, "{st:?}");
        assert_eq!(st.timeouts, 0, "{st:?}");
    }
    stoppable
}

#[test]
fn an_observer_that_never_ends_is_stopped_and_only_it_and_the_later_observers_are_lost() {
    // The suite stage observes values through getters; Endless.size() never returns (as a
    // getter of a view over an endless stream, or CursorableLinkedList's
    // Cursor.previousIndex() on a cursor whose node left the list). It is stopped at the
    // observers' limit (1 s in a cold worker, not the user's 2 s), its entry and the later
    // observers' are jforge.ObserverStopped (the stopped call may have left the value half
    // changed), and the statement keeps its normal outcome: the test stands without those
    // assertions. The worker goes on without a restart (JDK 17-19).
    let _g = serial();
    let mut t = OpTable::default();
    let ok = smethod(&mut t, "rsub.Hostile", "ok", "()I", vec![], int());
    let endless_ty = JType::class("rsub.Hostile$Endless");
    let endless = smethod(
        &mut t,
        "rsub.Hostile",
        "endless",
        "()Lrsub/Hostile$Endless;",
        vec![],
        Some(endless_ty.clone()),
    );
    let size = method(&mut t, "rsub.Hostile$Endless", "size", "()I", vec![], int());
    let hash = method(&mut t, "java.lang.Object", "hashCode", "()I", vec![], int());
    let mut observed = req(vec![call(endless, &[])]);
    observed.mode = jforge::runner::ExecMode::Observe;
    observed.observers = vec![(0, size), (0, hash)];
    let (res, took, st) = hung_then_ok(&t, observed, ok);
    assert!(
        matches!(
            &res[0].outcomes[..],
            [StmtOutcome::Normal(Observed::Object { .. })]
        ),
        "{:?}",
        res[0].outcomes
    );
    let lost: Vec<_> = res[0]
        .observers
        .iter()
        .map(|o| (o.op, o.result.clone()))
        .collect();
    let stopped = || Err("jforge.ObserverStopped".to_string());
    assert_eq!(lost, vec![(size, stopped()), (hash, stopped())]);
    if the_worker_went_on(&res, &st) {
        // the observers' cold limit (1 s) and the stop, not the user's 2 s
        assert!(took < Duration::from_millis(1900), "{took:?}");
    }
}

#[test]
fn stack_overflow_is_survived() {
    let (res, st) = run_hostile("recurse", "(I)I", Duration::from_secs(20), 128, true);
    assert_survived(&res, &st, CrashKind::StackOverflow);
}

#[test]
fn fifty_megabytes_on_system_out() {
    // Printing through System.out is counted: more than 1 MiB in one call is reported as the
    // pseudo-exception jforge.ExcessiveOutput (its tests would flood the user's console), and
    // the worker carries on without a restart.
    let (res, st) = run_hostile("spamOut", "()I", Duration::from_secs(20), 128, false);
    match &res[1].outcomes[1] {
        StmtOutcome::Exception { class, message, .. } => {
            assert_eq!(class.as_ref(), "jforge.ExcessiveOutput");
            assert!(
                message.as_deref().unwrap_or("").starts_with("printed "),
                "{message:?}"
            );
        }
        o => panic!("expected jforge.ExcessiveOutput, got {o:?}"),
    }
    assert_eq!(res[1].outcomes[2], StmtOutcome::NotRun);
    assert_eq!(
        res[2].outcomes[1],
        StmtOutcome::Normal(Observed::Value(Value::Int(42)))
    );
    assert_eq!(st.restarts, 0);
}

#[test]
fn fifty_megabytes_on_file_descriptors() {
    let (res, st) = run_hostile("spamFd", "()I", Duration::from_secs(20), 128, false);
    assert_eq!(
        res[1].outcomes[1],
        StmtOutcome::Normal(Observed::Value(Value::Int(2)))
    );
    assert_eq!(
        res[1].outcomes[2],
        StmtOutcome::Normal(Observed::Value(Value::Int(42)))
    );
    assert_eq!(st.restarts, 0);
}

#[test]
fn leaked_non_daemon_thread() {
    let (res, _) = run_hostile("leakThread", "()V", Duration::from_secs(5), 128, false);
    // blamed on the last statement, after the earlier ones ran normally
    assert_eq!(res[1].outcomes[1], StmtOutcome::Normal(Observed::Void));
    assert_eq!(
        res[1].outcomes[2],
        StmtOutcome::Crash(CrashKind::LeakedThreads)
    );
}

#[test]
fn pipelined_batches_run_in_order_across_a_worker_death() {
    // Two routed batches in flight at once (as the exhaustive search runs them); worker 0
    // dies in the first. Each batch's results come back complete and in input order, the
    // second runs on the restarted worker; a plain batch queues behind both, and a
    // synchronous request must wait for all.
    let _g = serial();
    let mut t = OpTable::default();
    let ok = smethod(&mut t, "rsub.Hostile", "ok", "()I", vec![], int());
    let halt = smethod(&mut t, "rsub.Hostile", "halt5", "()V", vec![], None);
    let mut pool = Pool::start(config(2, Duration::from_secs(5), 128, vec![subjects()])).unwrap();
    assert!(pool.register(&t).unwrap().is_empty());
    let good = || req(vec![lit_int(0), call(ok, &[])]);
    let bad = || req(vec![lit_int(1), call(halt, &[]), call(ok, &[])]);
    pool.submit_routed(vec![(good(), 0), (bad(), 0), (good(), 1), (good(), 0)])
        .unwrap();
    pool.submit_routed(vec![(good(), 1), (good(), 0), (bad(), 1)])
        .unwrap();
    pool.submit(vec![bad(), good(), good()]).unwrap();
    let err = pool.execute(vec![good()]).unwrap_err();
    assert!(err.to_string().contains("still running"), "{err}");
    let first = pool.collect().unwrap();
    let second = pool.collect().unwrap();
    let third = pool.collect().unwrap();
    let forty_two = StmtOutcome::Normal(Observed::Value(Value::Int(42)));
    assert_eq!(first.len(), 4);
    for i in [0, 2, 3] {
        assert_eq!(first[i].outcomes[1], forty_two, "first batch, request {i}");
    }
    assert_eq!(
        first[1].outcomes[1],
        StmtOutcome::Crash(CrashKind::Exited(Some(5)))
    );
    assert_eq!(second.len(), 3);
    for i in [0, 1] {
        assert_eq!(
            second[i].outcomes[1], forty_two,
            "second batch, request {i}"
        );
    }
    assert_eq!(
        second[2].outcomes[1],
        StmtOutcome::Crash(CrashKind::Exited(Some(5)))
    );
    assert_eq!(third.len(), 3);
    assert_eq!(
        third[0].outcomes[1],
        StmtOutcome::Crash(CrashKind::Exited(Some(5)))
    );
    for i in [1, 2] {
        assert_eq!(third[i].outcomes[1], forty_two, "third batch, request {i}");
    }
    assert_eq!(pool.slot_restarts().iter().sum::<u64>(), 3);
    assert!(pool.slot_restarts().iter().all(|&n| n >= 1));
    // idle again: synchronous requests work on the workers the batons handed back
    let more = pool.execute(vec![good(), good(), good()]).unwrap();
    assert!(more.iter().all(|r| r.outcomes[1] == forty_two));
    pool.shutdown();
    assert!(
        worker_children().is_empty(),
        "JVMs left behind: {:?}",
        worker_children()
    );
}

#[test]
fn a_long_call_on_one_worker_leaves_the_quick_requests_to_the_other() {
    // One request computes for 0.8 s (runnable all along: not cut as a wait), 300 quick ones
    // follow it in the same batch. The pool hands out small chunks to whichever worker is
    // free, so the other worker runs nearly all the quick ones (with one contiguous share per
    // worker it ran exactly half), and the results still come back in input order.
    let _g = serial();
    let mut t = OpTable::default();
    let int_param = || vec![JType::Prim(Prim::Int)];
    let busy = smethod(&mut t, "rsub.Hostile", "busy", "(I)I", int_param(), int());
    let twice = smethod(&mut t, "rsub.Hostile", "twice", "(I)I", int_param(), int());
    let mut pool = Pool::start(config(2, Duration::from_secs(5), 128, vec![subjects()])).unwrap();
    assert!(pool.register(&t).unwrap().is_empty());
    let quick = 300;
    let mut batch = vec![req(vec![lit_int(800), call(busy, &[0])])];
    batch.extend((1..=quick).map(|i| req(vec![lit_int(i), call(twice, &[0])])));
    let t0 = Instant::now();
    let res = pool.execute(batch).unwrap();
    let took = t0.elapsed();
    let stats = pool.stats();
    pool.shutdown();
    assert_eq!(res.len(), quick as usize + 1);
    assert!(
        matches!(
            res[0].outcomes[1],
            StmtOutcome::Normal(Observed::Value(Value::Int(1 | 2)))
        ),
        "{:?}",
        res[0].outcomes
    );
    for (i, r) in res.iter().enumerate().skip(1) {
        assert_eq!(
            r.outcomes[1],
            StmtOutcome::Normal(Observed::Value(Value::Int(2 * i as i32))),
            "request {i}"
        );
    }
    let slow = res[0].worker;
    let elsewhere = res[1..].iter().filter(|r| r.worker != slow).count();
    eprintln!("{elsewhere} of {quick} quick requests on the other worker, batch in {took:?}");
    assert!(
        elsewhere >= 280,
        "only {elsewhere} of {quick} quick requests ran on the worker without the long call"
    );
    assert!(took >= Duration::from_millis(800), "{took:?}");
    assert_eq!((stats.restarts, stats.timeouts, stats.not_run), (0, 0, 0));
    assert_eq!(stats.sequences, quick as u64 + 1);
}

/// Processes running `sleep SECONDS` (exact command line), whoever their parent is now.
fn sleeping(seconds: &str) -> Vec<u32> {
    let want = format!("sleep\0{seconds}\0");
    let mut v = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        if std::fs::read(format!("/proc/{pid}/cmdline")).is_ok_and(|c| c == want.as_bytes()) {
            v.push(pid);
        }
    }
    v
}

#[test]
fn leaked_process_is_killed_and_blamed() {
    let (res, st) = run_hostile("spawn", "()V", Duration::from_secs(5), 128, false);
    // blamed on the last statement, like a leaked thread, with the number killed
    assert_eq!(res[1].outcomes[1], StmtOutcome::Normal(Observed::Void));
    assert_eq!(
        res[1].outcomes[2],
        StmtOutcome::Crash(CrashKind::LeakedProcesses(1))
    );
    // counted as one kind whatever the number of processes
    assert_eq!(st.crashes.get(&CrashKind::LeakedProcesses(0)), Some(&1));
    assert!(
        sleeping("348").is_empty(),
        "left running: {:?}",
        sleeping("348")
    );
}

#[test]
fn escaped_grandchild_dies_with_the_worker_process_group() {
    let _g = serial();
    let mut t = OpTable::default();
    let escape = smethod(&mut t, "rsub.Hostile", "escape", "()I", vec![], int());
    let mut pool = Pool::start(config(1, Duration::from_secs(5), 128, vec![subjects()])).unwrap();
    assert!(pool.register(&t).unwrap().is_empty());
    let res = pool
        .execute(vec![
            req(vec![call(escape, &[])]),
            req(vec![call(escape, &[])]),
        ])
        .unwrap();
    // the shell ended normally: its orphan is not the sequence's descendant any more
    for r in &res {
        assert_eq!(
            r.outcomes[0],
            StmtOutcome::Normal(Observed::Value(Value::Int(0)))
        );
    }
    let t0 = Instant::now();
    while sleeping("349").len() < 2 && t0.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(sleeping("349").len(), 2, "the orphans did not start");
    pool.shutdown();
    // killed with the worker's process group (SIGKILL is immediate, reaping by init is not)
    let t0 = Instant::now();
    while !sleeping("349").is_empty() && t0.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(
        sleeping("349").is_empty(),
        "left running: {:?}",
        sleeping("349")
    );
    assert!(worker_children().is_empty());
}

#[test]
fn past_the_stop_time_a_worker_that_died_is_not_started_again() {
    // Two batches past the stop time, every chunk of the first one killing its worker
    // (System.exit): a worker that dies then is not restarted, and the chunks its slot takes
    // afterwards come back not run instead of costing a JVM start each (a hostile class held
    // gen 5 s past its time limit that way once the pool handed out small chunks).
    let _g = serial();
    let mut t = OpTable::default();
    let ok = smethod(&mut t, "rsub.Hostile", "ok", "()I", vec![], int());
    let exit = smethod(&mut t, "rsub.Hostile", "exit3", "()V", vec![], None);
    let mut pool = Pool::start(config(2, Duration::from_secs(5), 128, vec![subjects()])).unwrap();
    assert!(pool.register(&t).unwrap().is_empty());
    pool.set_stop_at(Some(Instant::now()));
    let deadly: Vec<_> = (0..64)
        .map(|_| req(vec![lit_int(0), call(exit, &[])]))
        .collect();
    let quick: Vec<_> = (0..64)
        .map(|_| req(vec![lit_int(0), call(ok, &[])]))
        .collect();
    pool.submit(deadly).unwrap();
    pool.submit(quick).unwrap();
    let first = pool.collect().unwrap();
    let second = pool.collect().unwrap();
    let stats = pool.stats();
    pool.shutdown();
    let exited = first
        .iter()
        .filter(|r| {
            r.outcomes
                .contains(&StmtOutcome::Crash(CrashKind::Exited(Some(3))))
        })
        .count();
    assert_eq!(exited, 2, "one death per worker, then no JVM start");
    assert_eq!(stats.restarts, 0, "{stats:?}");
    assert!(
        second
            .iter()
            .all(|r| r.outcomes.iter().all(|o| matches!(o, StmtOutcome::NotRun))),
        "the batch after the deaths ran"
    );
}
