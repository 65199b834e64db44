//! One statement's outcome, a contract's code, the blame of a violation or exception, and
//! the class-name tables both sides keep (the worker's encoder side is for tests and tools).

use super::consts::{
    C_COMPARETO_ANTISYMMETRIC, C_COMPARETO_REFLEXIVE, C_EQUALS_HASHCODE, C_EQUALS_NULL,
    C_EQUALS_REFLEXIVE, C_EQUALS_SYMMETRIC, C_HASHCODE_THROWS, C_TOSTRING_THROWS,
    CAUSE_ARGUMENT_CONTRACT, CAUSE_CALLBACK, CAUSE_COMPARATOR, CAUSE_HELD_CONTRACT, CAUSE_INTERNAL,
    CAUSE_JDK_VALUE, CAUSE_NONE, CAUSE_NULL_INPUT, CAUSE_STATE, CK_OOM, CK_SOE, EXC_MESSAGE,
    EXC_OUTSIDE_JDK, FRAME_JDK, FRAME_OWN, O_CRASH, O_EXC, O_NOTRUN, O_NULL, O_OBJECT, O_TIMEOUT,
    O_VALUE, O_VOID,
};
use super::frame::{Dec, Enc};
use super::values::{decode_value, encode_value};
use crate::runner::{Blame, Contract, CrashKind, Frame, InputCause, Observed, StmtOutcome};
use anyhow::{Result, bail};
use std::collections::HashMap;
use std::sync::Arc;

/// Rust-side copy of a worker's class-name table.
#[derive(Default, Debug, Clone)]
pub struct ClassTable {
    pub names: Vec<Arc<str>>,
}

impl ClassTable {
    pub fn read(&mut self, d: &mut Dec) -> Result<Arc<str>> {
        let id = d.u32()? as usize;
        if id == self.names.len() {
            let s: Arc<str> = d.str()?.into();
            self.names.push(s.clone());
            Ok(s)
        } else {
            self.names
                .get(id)
                .cloned()
                .ok_or_else(|| anyhow::anyhow!("protocol error: unknown class id {id}"))
        }
    }
}

/// Encoder-side class table (the worker's role; used by tests and tools).
#[derive(Default, Debug)]
pub struct ClassEncTable {
    ids: HashMap<Arc<str>, u32>,
}

impl ClassEncTable {
    pub fn write(&mut self, e: &mut Enc, s: &Arc<str>) {
        if let Some(&id) = self.ids.get(s) {
            e.u32(id);
        } else {
            let id = self.ids.len() as u32;
            self.ids.insert(s.clone(), id);
            e.u32(id);
            e.str(s);
        }
    }
}

/// Decodes one outcome.
pub fn decode_outcome(d: &mut Dec, classes: &mut ClassTable) -> Result<StmtOutcome> {
    Ok(match d.u8()? {
        O_NOTRUN => StmtOutcome::NotRun,
        O_VOID => StmtOutcome::Normal(Observed::Void),
        O_NULL => StmtOutcome::Normal(Observed::Null),
        O_VALUE => StmtOutcome::Normal(Observed::Value(decode_value(d)?)),
        O_OBJECT => {
            let class = classes.read(d)?;
            let fingerprint = if d.u8()? != 0 { Some(d.u64()?) } else { None };
            StmtOutcome::Normal(Observed::Object { class, fingerprint })
        }
        O_EXC => {
            let class = classes.read(d)?;
            let public_class = classes.read(d)?;
            let flags = d.u8()?;
            let message = if flags & EXC_MESSAGE != 0 {
                Some(d.str()?)
            } else {
                None
            };
            StmtOutcome::Exception {
                class,
                public_class,
                message,
                outside_jdk: flags & EXC_OUTSIDE_JDK != 0,
            }
        }
        O_TIMEOUT => StmtOutcome::Timeout,
        O_CRASH => {
            let kind = match d.u8()? {
                0 => CrashKind::Exited(if d.u8()? != 0 { Some(d.i32()?) } else { None }),
                CK_OOM => CrashKind::OutOfMemory,
                CK_SOE => CrashKind::StackOverflow,
                3 => CrashKind::LeakedThreads,
                4 => CrashKind::Unresponsive,
                5 => CrashKind::LeakedProcesses(d.u32()?),
                6 => CrashKind::WroteFiles(d.u32()?),
                t => bail!("bad crash kind {t}"),
            };
            StmtOutcome::Crash(kind)
        }
        t => bail!("protocol error: bad outcome tag {t}"),
    })
}

pub fn encode_outcome(e: &mut Enc, o: &StmtOutcome, classes: &mut ClassEncTable) {
    match o {
        StmtOutcome::NotRun => e.u8(O_NOTRUN),
        StmtOutcome::Normal(Observed::Void) => e.u8(O_VOID),
        StmtOutcome::Normal(Observed::Null) => e.u8(O_NULL),
        StmtOutcome::Normal(Observed::Value(v)) => {
            e.u8(O_VALUE);
            encode_value(e, v)
        }
        StmtOutcome::Normal(Observed::Object { class, fingerprint }) => {
            e.u8(O_OBJECT);
            classes.write(e, class);
            match fingerprint {
                Some(f) => {
                    e.u8(1);
                    e.u64(*f)
                }
                None => e.u8(0),
            }
        }
        StmtOutcome::Exception {
            class,
            public_class,
            message,
            outside_jdk,
        } => {
            e.u8(O_EXC);
            classes.write(e, class);
            classes.write(e, public_class);
            let outside = if *outside_jdk { EXC_OUTSIDE_JDK } else { 0 };
            match message {
                Some(m) => {
                    e.u8(outside | EXC_MESSAGE);
                    e.str(m)
                }
                None => e.u8(outside),
            }
        }
        StmtOutcome::Timeout => e.u8(O_TIMEOUT),
        StmtOutcome::Crash(k) => {
            e.u8(O_CRASH);
            match k {
                CrashKind::Exited(c) => {
                    e.u8(0);
                    match c {
                        Some(c) => {
                            e.u8(1);
                            e.i32(*c)
                        }
                        None => e.u8(0),
                    }
                }
                CrashKind::OutOfMemory => e.u8(CK_OOM),
                CrashKind::StackOverflow => e.u8(CK_SOE),
                CrashKind::LeakedThreads => e.u8(3),
                CrashKind::Unresponsive => e.u8(4),
                CrashKind::LeakedProcesses(n) => {
                    e.u8(5);
                    e.u32(*n)
                }
                CrashKind::WroteFiles(n) => {
                    e.u8(6);
                    e.u32(*n)
                }
            }
        }
    }
}

pub fn contract_code(c: Contract) -> u8 {
    match c {
        Contract::EqualsReflexive => C_EQUALS_REFLEXIVE,
        Contract::EqualsNull => C_EQUALS_NULL,
        Contract::EqualsSymmetric => C_EQUALS_SYMMETRIC,
        Contract::EqualsHashCode => C_EQUALS_HASHCODE,
        Contract::HashCodeThrows => C_HASHCODE_THROWS,
        Contract::ToStringThrows => C_TOSTRING_THROWS,
        Contract::CompareToReflexive => C_COMPARETO_REFLEXIVE,
        Contract::CompareToAntisymmetric => C_COMPARETO_ANTISYMMETRIC,
    }
}

pub(super) fn contract_from(c: u8) -> Result<Contract> {
    Ok(match c {
        C_EQUALS_REFLEXIVE => Contract::EqualsReflexive,
        C_EQUALS_NULL => Contract::EqualsNull,
        C_EQUALS_SYMMETRIC => Contract::EqualsSymmetric,
        C_EQUALS_HASHCODE => Contract::EqualsHashCode,
        C_HASHCODE_THROWS => Contract::HashCodeThrows,
        C_TOSTRING_THROWS => Contract::ToStringThrows,
        C_COMPARETO_REFLEXIVE => Contract::CompareToReflexive,
        C_COMPARETO_ANTISYMMETRIC => Contract::CompareToAntisymmetric,
        t => bail!("protocol error: bad contract {t}"),
    })
}

/// A blame (see the worker's `Blame`): cause, then the frames.
pub(super) fn decode_blame(d: &mut Dec, classes: &mut ClassTable) -> Result<Blame> {
    let cause = match d.u8()? {
        CAUSE_NONE => None,
        CAUSE_CALLBACK => Some(InputCause::CallbackThrew),
        CAUSE_COMPARATOR => Some(InputCause::ComparatorInconsistent),
        CAUSE_NULL_INPUT => Some(InputCause::NullInput),
        CAUSE_STATE => Some(InputCause::StateNotInitialized),
        CAUSE_ARGUMENT_CONTRACT => Some(InputCause::ArgumentBreaksContract),
        CAUSE_HELD_CONTRACT => Some(InputCause::HeldBreaksContract),
        CAUSE_JDK_VALUE => Some(InputCause::JdkValue),
        CAUSE_INTERNAL => Some(InputCause::InternalCall),
        t => bail!("protocol error: bad blame cause {t}"),
    };
    let n = d.u8()?;
    let mut frames = Vec::with_capacity(n as usize);
    for _ in 0..n {
        let class = classes.read(d)?;
        let method = classes.read(d)?;
        let line = d.i32()?;
        let flags = d.u8()?;
        frames.push(Frame {
            class,
            method,
            line,
            own: flags & FRAME_OWN != 0,
            jdk: flags & FRAME_JDK != 0,
        });
    }
    Ok(Blame { cause, frames })
}

pub(super) fn encode_blame(e: &mut Enc, b: &Blame, classes: &mut ClassEncTable) {
    e.u8(match b.cause {
        None => CAUSE_NONE,
        Some(InputCause::CallbackThrew) => CAUSE_CALLBACK,
        Some(InputCause::ComparatorInconsistent) => CAUSE_COMPARATOR,
        Some(InputCause::NullInput) => CAUSE_NULL_INPUT,
        Some(InputCause::StateNotInitialized) => CAUSE_STATE,
        Some(InputCause::ArgumentBreaksContract) => CAUSE_ARGUMENT_CONTRACT,
        Some(InputCause::HeldBreaksContract) => CAUSE_HELD_CONTRACT,
        Some(InputCause::JdkValue) => CAUSE_JDK_VALUE,
        Some(InputCause::InternalCall) => CAUSE_INTERNAL,
    });
    e.u8(b.frames.len().min(255) as u8);
    for f in b.frames.iter().take(255) {
        classes.write(e, &f.class);
        classes.write(e, &f.method);
        e.i32(f.line);
        e.u8(if f.own { FRAME_OWN } else { 0 } | if f.jdk { FRAME_JDK } else { 0 });
    }
}
