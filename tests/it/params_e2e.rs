//! End-to-end tests of `jforge params` (real worker JVMs): each exception handler on a
//! subject of tests/subjects/params made for it, the totals of the report, the hard cases
//! (a JVM exit, a call that never returns) reported per method, and the flag errors.

use crate::support::*;
use serde_json::Value;
use std::sync::OnceLock;

/// `jforge params --package pm` on the params subjects, run once for the tests that read it.
fn pm_report() -> &'static Value {
    static REPORT: OnceLock<Value> = OnceLock::new();
    REPORT.get_or_init(|| {
        let d = tempfile::tempdir().unwrap();
        let json = d.path().join("p.json");
        let mut c = jforge();
        c.args(["params", "-q", "--classpath"])
            .arg(compiled("params"))
            .args(["--package", "pm", "--call-timeout", "1s", "--stats-json"])
            .arg(&json);
        run_ok(&mut c);
        read_json(&json)
    })
}

/// The report of one method, by its signature.
fn method(sig: &str) -> &'static Value {
    method_in(pm_report(), sig)
}

/// The report of method `sig` in report `r`.
fn method_in<'a>(r: &'a Value, sig: &str) -> &'a Value {
    r["per_method"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["method"] == sig)
        .unwrap_or_else(|| panic!("{sig} not in the report"))
}

/// `jforge params -q ARGS --stats-json F`: the report.
fn params_report(args: &[&str]) -> Value {
    let d = tempfile::tempdir().unwrap();
    let json = d.path().join("p.json");
    let mut c = jforge();
    c.args(["params", "-q"])
        .args(args)
        .arg("--stats-json")
        .arg(&json);
    run_ok(&mut c);
    read_json(&json)
}

/// `jforge params` on `classes` with a smoke suite: the report, and the folder holding the
/// suite (`smoke/`), removed when dropped.
fn report_with_suite(classes: &[&str]) -> (Value, tempfile::TempDir) {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("smoke");
    let mut args: Vec<&str> = classes.iter().flat_map(|c| ["--class", *c]).collect();
    args.extend(["--output-dir", out.to_str().unwrap()]);
    (params_report(&args), d)
}

/// The working call of `sig` in report `r`, asserting the method was invoked.
fn invoked_call(r: &Value, sig: &str) -> String {
    let m = method_in(r, sig);
    assert_eq!(m["status"], "invoked", "{m:#}");
    m["call"].as_str().unwrap().to_string()
}

/// Asserts `sig` was invoked after handler `h` proposed the working plan.
fn handled_by(sig: &str, h: &str) -> &'static Value {
    let m = method(sig);
    assert_eq!(m["status"], "invoked", "{m:#}");
    assert_eq!(m["handled_by"], h, "{m:#}");
    assert!(m["attempts"].as_u64().unwrap() >= 2, "{m:#}");
    m
}

#[test]
#[ignore = "slow: runs jforge params end to end"]
fn index_handler_finds_a_window_and_a_permutation() {
    let w = handled_by("pm.Ranges.window(int,int)", "index");
    // the receiver was filled by its relative operation (add) before the call
    let call = w["call"].as_str().unwrap();
    assert!(call.contains(".add(\"a\")"), "{call}");
    assert!(call.contains(".window(0, 1)"), "{call}");
    // only the reverse of a non-decreasing pair works: between(hi, lo) needs hi > lo
    let b = handled_by("pm.Ranges.between(int,int)", "index");
    assert!(
        b["call"].as_str().unwrap().contains(".between(1, 0)"),
        "{b:#}"
    );
    assert_eq!(b["returned"], "\"ab\"");
}

#[test]
#[ignore = "slow: runs jforge params end to end"]
fn state_handler_calls_the_relative_operation_first() {
    let m = handled_by("pm.Bag.take()", "state");
    let call = m["call"].as_str().unwrap();
    let add = call.find(".add(").expect("add called");
    let take = call.find(".take()").expect("take called");
    assert!(add < take, "{call}");
}

#[test]
#[ignore = "slow: runs jforge params end to end"]
fn cast_handler_finds_the_class_the_method_casts_to() {
    let m = handled_by("pm.Registry.register(Object)", "cast");
    assert!(m["call"].as_str().unwrap().contains("new Tag("), "{m:#}");
    assert_eq!(m["returned"], "true");
}

#[test]
#[ignore = "slow: runs jforge params end to end"]
fn value_handlers_find_a_number_and_a_level() {
    let p = handled_by("pm.Parser.parse(String)", "number-format");
    assert_eq!(p["returned"], "2");
    let g = handled_by("pm.Gauge.set(int)", "value-search");
    assert!(g["call"].as_str().unwrap().contains(".set(10)"), "{g:#}");
}

#[test]
#[ignore = "slow: runs jforge params end to end"]
fn value_search_tries_what_the_method_compared_its_argument_against() {
    // 4711 is in no constant pool and no boundary list: comparison logging found it
    let m = handled_by("pm.Lock.open(int)", "value-search");
    assert!(m["call"].as_str().unwrap().contains(".open(4711)"), "{m:#}");
    assert_eq!(m["attempts"], 2, "{m:#}");
}

#[test]
#[ignore = "slow: runs jforge params end to end"]
fn unsupported_and_null_handlers_take_another_receiver() {
    let s = handled_by("pm.Store.put(String)", "unsupported");
    assert!(s["call"].as_str().unwrap().contains("new Store("), "{s:#}");
    let n = handled_by("pm.Named.length()", "null-pointer");
    assert!(
        n["call"].as_str().unwrap().contains("new Named(\"abc\")"),
        "{n:#}"
    );
    assert_eq!(n["returned"], "3");
    // a method that always throws is reported with the exception, message and top frame
    let r = method("pm.Store$ReadOnly.put(String)");
    assert_eq!(r["status"], "failed");
    let f = &r["failure"];
    assert_eq!(f["cause"], "java.lang.UnsupportedOperationException");
    assert_eq!(f["message"], "read-only store");
    assert!(
        f["frames"][0]
            .as_str()
            .unwrap()
            .starts_with("pm.Store$ReadOnly.put"),
        "{f:#}"
    );
    assert!(
        r["handlers_tried"]
            .as_array()
            .unwrap()
            .contains(&"unsupported".into())
    );
}

#[test]
#[ignore = "slow: runs jforge params end to end"]
fn functional_interface_parameters_get_a_lambda() {
    // each method throws NullPointerException on null: only the lambda makes it work
    let call = |sig: &str, returned: &str| {
        let m = method(sig);
        assert_eq!(m["status"], "invoked", "{m:#}");
        assert_eq!(m["returned"], returned, "{m:#}");
        m["call"].as_str().unwrap().to_string()
    };
    let each = call("pm.Callbacks.each(Consumer)", "2");
    assert!(
        each.contains(".each((Consumer<? super String>) (p$0) -> {})"),
        "{each}"
    );
    // a value of the producer graph comes before a lambda: BinaryOperator.maxBy, whose
    // Comparator is a lambda (nothing in the graph makes one)
    let combine = call("pm.Callbacks.combine(BinaryOperator)", "\"X\"");
    assert!(
        combine.contains(".<String>maxBy((Comparator<? super String>) (p$0, p$1) -> 0)"),
        "{combine}"
    );
    // zero and false for primitive results
    assert!(call("pm.Callbacks.fold(IntBinaryOperator)", "5").contains("(p$0, p$1) -> 0)"));
    // (a made Predicate of the graph, Predicate.isEqual or not, comes first)
    call("pm.Callbacks.keepsAll(Predicate)", "true");
    // the graph's Comparator.naturalOrder() before a lambda: reversed "a" vs "b" is 1, + 2
    call("pm.Callbacks.order(Comparator)", "3");
    // a String result: ""
    assert!(call("pm.Callbacks.checked(Supplier)", "\"!\"").contains("() -> \"\")"));
    // the subject's own interface, found functional from its class file; int boxed to Object
    let t = call("pm.Callbacks.transform(Mapper)", "\"33\"");
    assert!(t.contains("(Callbacks.Mapper) (p$0) -> p$0"), "{t}");
    // two abstract methods: no lambda, an anonymous class whose methods return a String
    let w = call("pm.Callbacks.wire(Codec)", "\"abc\"");
    assert!(
        w.contains("new Callbacks.Codec() { @Override public String decode(String p$0) { return \"abc\"; } @Override public String encode(String p$0) { return \"abc\"; } }"),
        "{w}"
    );
}

#[test]
#[ignore = "slow: runs jforge params end to end"]
fn type_parameters_from_bounds_class_literals_and_array_setters() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("smoke");
    let r = params_report(&[
        "--class",
        "java.util.HexFormat",
        "--class",
        "java.util.Optional",
        "--class",
        "java.lang.EnumConstantNotPresentException",
        "--class",
        "java.util.Arrays",
        "--output-dir",
        out.to_str().unwrap(),
    ]);
    let call = |sig: &str| {
        let m = method_in(&r, sig);
        assert_eq!(m["status"], "invoked", "{m:#}");
        m["call"].as_str().unwrap().to_string()
    };
    // <A extends Appendable>: String and Integer are no Appendable, the bound is
    assert!(
        call("java.util.HexFormat.formatHex(Appendable,byte[])")
            .contains(".<Appendable>formatHex(")
    );
    // <X extends Throwable> orElseThrow(Supplier<? extends X>): a Supplier lambda
    let o = call("java.util.Optional.orElseThrow(Supplier)");
    assert!(
        o.contains(".<Throwable>orElseThrow((Supplier<? extends Throwable>) () -> null)"),
        "{o}"
    );
    // a Class<? extends Enum> argument: a class literal
    let e = call("java.lang.EnumConstantNotPresentException(Class,String)");
    assert!(e.contains("(Enum.class, \"abc\")"), "{e}");
    // setAll sets an array's elements, not the JVM's state: called
    call("java.util.Arrays.setAll(int[],IntUnaryOperator)");
    assert_eq!(r["suite"]["tests"], r["invoked"], "{:#}", r["suite"]);
    assert_eq!(r["suite"]["validation"]["clean"], true, "{:#}", r["suite"]);
}

#[test]
#[ignore = "slow: runs jforge params end to end"]
fn an_enum_constant_a_call_returned_is_a_receiver() {
    // the worker reports an enum result as a value, not an object: valueOf("ALL") makes the
    // receiver of getName()
    let r = params_report(&["--class", "java.lang.System$Logger$Level"]);
    let m = method_in(&r, "java.lang.System$Logger$Level.getName()");
    assert_eq!(m["status"], "invoked", "{m:#}");
    assert_eq!(m["returned"], "\"ALL\"", "{m:#}");
    assert_eq!(r["invoked"], r["methods"], "{r:#}");
}

#[test]
#[ignore = "slow: runs jforge params end to end"]
fn unsupported_handler_takes_an_argument_of_another_class() {
    // Collections.fill writes into its List argument: the simplest List is immutable
    // (Collections.singletonList), an ArrayList is not
    let r = params_report(&[
        "--class",
        "java.util.Collections",
        "--class",
        "java.util.ArrayList",
    ]);
    let m = method_in(&r, "java.util.Collections.fill(List,String)");
    assert_eq!(m["status"], "invoked", "{m:#}");
    assert_eq!(m["handled_by"], "unsupported", "{m:#}");
    assert!(
        m["call"]
            .as_str()
            .unwrap()
            .contains("fill(arrayList0, \"abc\")"),
        "{m:#}"
    );
}

#[test]
#[ignore = "slow: runs jforge params end to end"]
fn an_exit_and_a_hang_are_reported_per_method_and_the_rest_runs() {
    let e = method("pm.Hostile.exit()");
    assert_eq!(e["failure"]["cause"], "crash: JVM exited with code 3");
    let s = method("pm.Hostile.spin()");
    assert!(
        s["failure"]["cause"]
            .as_str()
            .unwrap()
            .starts_with("timeout"),
        "{s:#}"
    );
    assert_eq!(method("pm.Hostile.fine()")["returned"], "7");
}

#[test]
#[ignore = "slow: runs jforge params end to end"]
fn totals_count_every_public_method_and_constructor() {
    let r = pm_report();
    assert_eq!(r["command"], "params");
    // 44 public non-abstract methods and constructors in 13 classes; four cannot work:
    // exit(), spin(), ReadOnly.put and Zoned.here (only in the search's JVM); Callbacks.wire
    // gets an anonymous class of an interface of two abstract methods
    assert_eq!(r["per_method"].as_array().unwrap().len(), 44);
    assert_eq!(r["methods"], 44);
    assert_eq!(r["classes"], 13);
    assert_eq!(r["invoked"], 40);
    assert_eq!(r["failed"], 4);
    assert_eq!(r["per_class"]["pm.Hostile"]["invoked"], 2);
    assert_eq!(r["per_class"]["pm.Callbacks"]["invoked"], 9);
    assert_eq!(r["per_package"]["pm"]["methods"], 44);
    // every handled method is counted under its handler
    let by: u64 = r["handled_by"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(by, r["handled"].as_u64().unwrap());
    assert_eq!(r["handled"], 9);
}

#[test]
#[ignore = "slow: runs jforge params end to end"]
fn a_working_call_that_fails_in_a_fresh_jvm_is_reported_unstable() {
    // completes in the search's worker; the confirming JVM runs in UTC+14 or UTC-12
    let z = method("pm.Zoned.here()");
    assert_eq!(z["status"], "failed", "{z:#}");
    assert!(
        z["failure"]["cause"]
            .as_str()
            .unwrap()
            .starts_with("unstable"),
        "{z:#}"
    );
    // every other working call completed again there
    let unstable = pm_report()["per_method"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| {
            m["failure"]["cause"]
                .as_str()
                .is_some_and(|c| c.starts_with("unstable"))
        })
        .count();
    assert_eq!(unstable, 1);
}

#[test]
#[ignore = "slow: runs jforge params end to end"]
fn the_smoke_suite_has_one_passing_test_per_working_call() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("smoke");
    let json = d.path().join("p.json");
    let cp = compiled("params");
    let mut c = jforge();
    c.args(["params", "-q", "--classpath"])
        .arg(&cp)
        .args(["--package", "pm", "--call-timeout", "1s", "--output-dir"])
        .arg(&out)
        .arg("--stats-json")
        .arg(&json);
    run_ok(&mut c);
    let r = read_json(&json);
    assert_eq!(r["suite"]["tests"], r["invoked"], "{:#}", r["suite"]);
    assert_eq!(r["suite"]["validation"]["clean"], true);
    // compiled and run here, independently of jforge's own check
    let run = compile_and_run_junit4(&out, cp.to_str().unwrap());
    assert_eq!(run.tests_run, 40, "{}", run.output);
    assert!(run.failures.is_empty(), "{:?}", run.failures);
    // the working call of Ranges.between, with its result asserted
    let ranges = std::fs::read_to_string(out.join("pm/RangesSmokeTest.java")).unwrap();
    assert!(
        ranges.contains("ranges0.between(1, 0);") && ranges.contains("assertEquals(\"ab\", str0);"),
        "{ranges}"
    );
    // the lambdas compile and run in the user's build
    let callbacks = std::fs::read_to_string(out.join("pm/CallbacksSmokeTest.java")).unwrap();
    assert!(callbacks.contains("(p$0) -> p$0)"), "{callbacks}");
    // and so do the anonymous classes
    assert!(callbacks.contains("new Callbacks.Codec() {"), "{callbacks}");
}

#[test]
fn params_without_classes_is_refused_with_advice() {
    let o = jforge().args(["params"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("--class NAME or --package PACKAGE"), "{err}");
    let o = jforge()
        .args(["params", "--class", "java.util.ArrayList", "--retries", "0"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--retries must be at least 1"));
}

#[test]
#[ignore = "slow: runs jforge params, then mvn package and a JMH benchmark"]
fn the_jmh_project_builds_and_runs_a_benchmark() {
    let d = tempfile::tempdir().unwrap();
    let bench = d.path().join("bench");
    let json = d.path().join("p.json");
    let mut c = jforge();
    c.args(["params", "-q", "--classpath"])
        .arg(compiled("params"))
        .args(["--package", "pm", "--call-timeout", "1s", "--jmh"])
        .arg(&bench)
        .args(["--vary", "set(int)=0:30:4", "--stats-json"])
        .arg(&json);
    run_ok(&mut c);
    let r = read_json(&json);
    let b = &r["benchmark"];
    assert_eq!(b["benchmarks"], r["invoked"]);
    // take() empties the bag its setup filled with 3 elements: made again per invocation
    assert_eq!(b["consuming"]["pm.Bag.take()"], 3, "{b:#}");
    // set(int) accepts 10..20: of 0, 10, 20, 30 two are kept as the @Param
    assert_eq!(b["varied"]["values"], serde_json::json!([10, 20]));
    assert_eq!(b["varied"]["dropped"], serde_json::json!([0, 30]));
    let gauge =
        std::fs::read_to_string(bench.join("src/main/java/jforge/bench/GaugeBench.java")).unwrap();
    assert!(gauge.contains("@Param({\"10\", \"20\"})"), "{gauge}");
    let bag =
        std::fs::read_to_string(bench.join("src/main/java/jforge/bench/BagBench.java")).unwrap();
    assert!(bag.contains("@Setup(Level.Invocation)"), "{bag}");
    assert!(bag.contains("bh.consume(s.v0.take());"), "{bag}");
    let callbacks =
        std::fs::read_to_string(bench.join("src/main/java/jforge/bench/CallbacksBench.java"))
            .unwrap();
    assert!(callbacks.contains("(p$0, p$1) -> 0;"), "{callbacks}");
    // a method declaring a checked exception (Callbacks.checked) is called from both
    assert!(
        callbacks.contains("setup() throws Throwable"),
        "{callbacks}"
    );
    assert!(callbacks.contains("_checked(S"), "{callbacks}");
    // as generated: mvn package, then one benchmark with minimal iterations
    let mvn = std::process::Command::new("mvn")
        .args(["-q", "-B", "package"])
        .current_dir(&bench)
        .output()
        .expect("mvn runs");
    assert!(
        mvn.status.success(),
        "mvn package failed:\n{}{}",
        String::from_utf8_lossy(&mvn.stdout),
        String::from_utf8_lossy(&mvn.stderr)
    );
    let run = std::process::Command::new(jdk_tool("java"))
        .args([
            "-jar",
            "target/benchmarks.jar",
            "-wi",
            "0",
            "-i",
            "1",
            "-f",
            "1",
            "-r",
            "100ms",
        ])
        .args(["BagBench.m1_take|GaugeBench.m.*_set|CallbacksBench.m.*_combine"])
        .current_dir(&bench)
        .output()
        .expect("java runs");
    let out = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(out.contains("BagBench.m1_take"), "{out}");
    // a lambda built in the @Setup, outside the measured call
    assert!(out.contains("_combine"), "{out}");
    // one row per @Param value
    let rows = out
        .lines()
        .filter(|l| l.starts_with("GaugeBench.m"))
        .count();
    assert_eq!(rows, 2, "{out}");
}

#[test]
#[ignore = "slow: runs jforge params end to end"]
fn vary_grows_the_receiver_for_indices_beyond_its_size() {
    // the issue's example: add(int, Object) at 10 indices up to 1000 of a list
    let d = tempfile::tempdir().unwrap();
    let json = d.path().join("p.json");
    let mut c = jforge();
    c.args(["params", "-q", "--class", "java.util.ArrayList"])
        .args([
            "--vary",
            "add(int,java.lang.Object)=0:1000:10",
            "--stats-json",
        ])
        .arg(&json);
    run_ok(&mut c);
    let v = &read_json(&json)["benchmark"]["varied"];
    assert_eq!(
        v["values"],
        serde_json::json!([0, 111, 222, 333, 444, 555, 666, 777, 888, 1000])
    );
    assert_eq!(v["dropped"], serde_json::json!([]));
    // a value no receiver makes valid is still left out
    let mut c = jforge();
    c.args(["params", "-q", "--class", "java.util.ArrayList"])
        .args(["--vary", "add(int,java.lang.Object)=-2:0:3", "--stats-json"])
        .arg(&json);
    run_ok(&mut c);
    let v = &read_json(&json)["benchmark"]["varied"];
    assert_eq!(v["values"], serde_json::json!([0]));
    assert_eq!(v["dropped"], serde_json::json!([-2, -1]));
}

#[test]
#[ignore = "slow: runs jforge params end to end"]
fn process_launchers_run_a_harmless_command_and_files_are_the_temp_dir() {
    // without a command ProcessBuilder.start() threw "Cannot run program" and no Process
    // existed; without a File the redirects threw NullPointerException
    let (r, d) = report_with_suite(&[
        "java.lang.ProcessBuilder",
        "java.lang.Process",
        "java.lang.ProcessBuilder$Redirect",
    ]);
    let call = |sig: &str| invoked_call(&r, sig);
    let start = call("java.lang.ProcessBuilder.start()");
    assert!(start.contains("new String[] { \"true\""), "{start}");
    let pid = call("java.lang.Process.pid()");
    assert!(pid.contains(".start();"), "{pid}");
    call("java.lang.Process.waitFor(long,TimeUnit)");
    let to = call("java.lang.ProcessBuilder$Redirect.to(File)");
    assert!(
        to.contains("System.getProperty(\"java.io.tmpdir\")"),
        "{to}"
    );
    call("java.lang.ProcessBuilder.directory(File)");
    // every Process method (the abstract ones are not counted) and ProcessBuilder's but one
    let process = &r["per_class"]["java.lang.Process"];
    assert_eq!(process["invoked"], process["methods"], "{process:#}");
    assert!(r["invoked"].as_u64().unwrap() >= 40, "{r:#}");
    // the smoke suite runs the command again, in a fresh JVM, and passes
    assert_eq!(r["suite"]["tests"], r["invoked"], "{:#}", r["suite"]);
    // what a started process reports depends on the scheduler (isAlive() was once false in
    // both confirming runs and true in the suite's reverse-order run): nothing is asserted
    let process_tests =
        std::fs::read_to_string(d.path().join("smoke/jforge/tests/ProcessSmokeTest.java")).unwrap();
    assert!(process_tests.contains("isAlive()"), "{process_tests}");
    assert!(!process_tests.contains("assert"), "{process_tests}");
    assert_eq!(r["suite"]["validation"]["clean"], true, "{:#}", r["suite"]);
}

#[test]
#[ignore = "slow: runs jforge params end to end"]
fn inverse_operations_tokens_and_bare_indices() {
    // each of these threw without the rule named beside it
    let r = params_report(&[
        "--class",
        "java.util.Base64",
        "--class",
        "java.util.Base64$Decoder",
        "--class",
        "java.util.Base64$Encoder",
        "--class",
        "java.util.UUID",
        "--class",
        "java.util.Scanner",
        "--class",
        "java.util.Objects",
    ]);
    let handled = |sig: &str, h: &str| {
        let m = method_in(&r, sig);
        assert_eq!(m["status"], "invoked", "{m:#}");
        assert_eq!(m["handled_by"], h, "{m:#}");
        m["call"].as_str().unwrap().to_string()
    };
    // the inverse operation: decode what the encoder of the same family returned
    let d = handled("java.util.Base64$Decoder.decode(byte[])", "value-search");
    assert!(
        d.contains(".decode(byteArray1)") && d.contains(".encode("),
        "{d}"
    );
    let u = handled("java.util.UUID.fromString(String)", "value-search");
    assert!(
        u.contains(".toString();") && u.contains("UUID.fromString(str0)"),
        "{u}"
    );
    // a receiver made again from a token a reader reads
    let i = handled("java.util.Scanner.nextInt()", "state");
    assert!(i.contains("new Scanner(\"1\")"), "{i}");
    let b = handled("java.util.Scanner.nextBoolean()", "state");
    assert!(b.contains("new Scanner(\"true\")"), "{b}");
    // an index below another argument when no container is involved
    let c = handled("java.util.Objects.checkIndex(int,int)", "index");
    assert!(c.contains("Objects.checkIndex(0, 1)"), "{c}");
}

#[test]
#[ignore = "slow: runs jforge params end to end"]
fn strings_name_the_class_in_play_a_charset_a_class_and_a_number_range() {
    let r = params_report(&[
        "--class",
        "java.lang.Enum",
        "--class",
        "java.lang.Class",
        "--class",
        "java.lang.Integer",
        "--class",
        "java.lang.String",
        // an enum for Enum.valueOf's <T extends Enum<T>>, an annotation type in the model
        "--class",
        "java.lang.Thread$State",
        "--class",
        "java.lang.Deprecated",
    ]);
    let call = |sig: &str| invoked_call(&r, sig);
    // an enum constant of the class literal, a public field of the Class<String> receiver
    let e = call("java.lang.Enum.valueOf(Class,String)");
    assert!(e.contains("(Thread.State.class, \"NEW\")"), "{e}");
    let f = call("java.lang.Class.getField(String)");
    assert!(f.contains("getField(\"CASE_INSENSITIVE_ORDER\")"), "{f}");
    // well-known JDK names
    assert!(call("java.lang.String.getBytes(String)").contains("getBytes(\"UTF-8\")"));
    assert!(call("java.lang.Class.forName(String)").contains("forName(\"java.lang.String\")"));
    // an annotation type for <A extends Annotation>, not Annotation.class
    let a = call("java.lang.Class.getAnnotationsByType(Class)");
    assert!(a.contains("Deprecated.class"), "{a}");
    // a reifiable parameterized array (Class<?>[]), emptied when no such member exists
    let m = method_in(&r, "java.lang.Class.getMethod(String,Class[])");
    assert_eq!(m["handled_by"], "member", "{m:#}");
    let g = call("java.lang.Class.getMethod(String,Class[])");
    assert!(g.contains("Class<?>[] clsArray0 = new Class[] {};"), "{g}");
    assert!(call("java.lang.Class.getConstructor(Class[])").contains("getConstructor(clsArray0)"));
    // a number with its range and radix
    let p = call("java.lang.Integer.parseInt(CharSequence,int,int,int)");
    assert!(p.contains("parseInt(\"12\", 0, 2, 10)"), "{p}");
}

#[test]
#[ignore = "slow: runs jforge params end to end"]
fn an_element_of_a_made_collection_and_arguments_checked_together() {
    let (r, d) = report_with_suite(&["java.util.Currency", "java.util.SimpleTimeZone"]);
    let call = |sig: &str| invoked_call(&r, sig);
    // no method of Currency makes one from a value jforge has: the first of the set
    // getAvailableCurrencies() returned
    let c = call("java.util.Currency.getCurrencyCode()");
    assert!(
        c.contains("Currency.getAvailableCurrencies();") && c.contains(".iterator();"),
        "{c}"
    );
    // all but getInstance(Locale): the locales made have no country
    let currency = &r["per_class"]["java.util.Currency"];
    assert_eq!(currency["methods"], 12, "{currency:#}");
    let not_invoked: Vec<&Value> = r["per_method"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| {
            m["method"]
                .as_str()
                .is_some_and(|s| s.starts_with("java.util.Currency."))
                && m["status"] != "invoked"
        })
        .collect();
    assert_eq!(currency["invoked"], 11, "{currency:#}\n{not_invoked:#?}");
    // month, day, day of week and time checked together: all 1 at once
    let s = call("java.util.SimpleTimeZone.setStartRule(int,int,int,int)");
    assert!(s.contains(".setStartRule(1, 1, 1, 1)"), "{s}");
    // the written tests take the element again, in another JVM, and pass; which element
    // comes first differs between JVMs, so Currency's tests assert nothing
    assert_eq!(r["suite"]["tests"], r["invoked"], "{:#}", r["suite"]);
    assert_eq!(r["suite"]["validation"]["clean"], true, "{:#}", r["suite"]);
    let written =
        std::fs::read_to_string(d.path().join("smoke/jforge/tests/CurrencySmokeTest.java"))
            .unwrap();
    assert!(written.contains(".iterator();"), "{written}");
    assert!(!written.contains("assert"), "{written}");
}

#[test]
#[ignore = "slow: runs jforge params end to end"]
fn abstract_classes_get_anonymous_subclasses() {
    // fw.Job: abstract, a package-private constructor, a protected abstract method; and the
    // JDK's TimerTask (protected constructor, public abstract run()): nothing on the class
    // path implements either, so only an anonymous subclass gives their methods a receiver
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("smoke");
    let cp = compiled("stubs");
    let r = params_report(&[
        "--classpath",
        cp.to_str().unwrap(),
        "--class",
        "fw.Job",
        "--class",
        "java.util.TimerTask",
        "--class",
        "java.util.ResourceBundle$Control",
        "--output-dir",
        out.to_str().unwrap(),
    ]);
    let call = |sig: &str, returned: &str| {
        let m = method_in(&r, sig);
        assert_eq!(m["status"], "invoked", "{m:#}");
        assert_eq!(m["returned"], returned, "{m:#}");
        m["call"].as_str().unwrap().to_string()
    };
    // the super constructor's argument and the value run() returns are the stub's inputs
    let job = call("fw.Job.describe(int)", "\"abc:0\"");
    assert!(
        job.contains(
            "Job job0 = new Job(\"abc\") { @Override protected int run(int p$0) { return 0; } };"
        ),
        "{job}"
    );
    call("fw.Job.name()", "3");
    let task = call("java.util.TimerTask.cancel()", "false");
    assert!(
        task.contains("new TimerTask() { @Override public void run() { } }"),
        "{task}"
    );
    call("java.util.TimerTask.scheduledExecutionTime()", "0L");
    // not abstract, but a protected constructor only: an anonymous subclass with no method
    let control = call(
        "java.util.ResourceBundle$Control.toResourceName(String,String)",
        "\"abc.abc\"",
    );
    assert!(
        control.contains("new ResourceBundle.Control() { }"),
        "{control}"
    );
    let invoked = r["invoked"].as_u64().unwrap();
    assert!(invoked >= 12, "{r:#}");
    // the smoke suite (fw.Job's in package fw, where its constructor is accessible) compiles
    // and passes
    assert_eq!(r["suite"]["tests"], invoked, "{:#}", r["suite"]);
    assert_eq!(r["suite"]["validation"]["clean"], true, "{:#}", r["suite"]);
    let run = compile_and_run_junit4(&out, cp.to_str().unwrap());
    assert_eq!(run.tests_run as u64, invoked, "{}", run.output);
    assert!(run.failures.is_empty(), "{:?}", run.failures);
}
