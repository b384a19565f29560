//! Command-block encoding of the work queue (SPEC WQ-4): what an entry's block holds, in words
//! the [`super::host_interface::HostInterface`] decodes and software (the driver, GPU threads,
//! the system model) writes.
//!
//! A block is a sequence of commands of two 32-bit words each, `header` then `payload`; an
//! entry (WQ-9, [`super::gp_entry`]) gives the block's word address and its length in words,
//! which must be even and at least 2.
//!
//! | header bits | field |
//! | --- | --- |
//! | `[31:28]` | opcode: 1 kernel launch, 2 wait-for-idle (WFI), 3 semaphore release, 4 semaphore acquire; anything else is malformed |
//! | `[27:25]` | acquire condition: 0 equal, 1 unsigned >=, 2 circular >= (signed difference >= 0), 3 AND non-zero, 4 NOR non-zero; 5..7 malformed (acquire only) |
//! | `[24]` | release after WFI (release only) |
//! | `[15]` | named semaphore: `[0]` 0 = X, 1 = Y |
//! | `[14:0]` | otherwise the entry index i of S[i] (must be below `ENTRIES`) |
//!
//! Payload: the kernel to launch (launch), the value written (release) or compared (acquire);
//! ignored by WFI. The five conditions and the release-after-WFI flag are those of the public
//! host-interface semaphore methods (ACQUIRE, ACQ_STRICT_GEQ, ACQ_CIRC_GEQ, ACQ_AND, ACQ_NOR;
//! RELEASE_WFI); the packing into one header word is this project's.

/// Header opcodes (`[31:28]`).
pub const OP_LAUNCH: u64 = 1;
pub const OP_WFI: u64 = 2;
pub const OP_RELEASE: u64 = 3;
pub const OP_ACQUIRE: u64 = 4;
/// Acquire condition codes (`[27:25]`).
pub const COND_EQUAL: u64 = 0;
pub const COND_GEQ: u64 = 1;
pub const COND_CIRC_GEQ: u64 = 2;
pub const COND_AND: u64 = 3;
pub const COND_NOR: u64 = 4;
/// Header field positions.
pub const OPCODE_LSB: u32 = 28;
pub const COND_LSB: u32 = 25;
pub const RELEASE_WFI_BIT: u32 = 24;
pub const NAMED_SEM_BIT: u32 = 15;
/// Largest entry index a header can name.
pub const MAX_SEM_INDEX: u32 = 0x7FFF;

/// A semaphore named by a command: S[i] of entry i, or X, or Y (WQ-5, WQ-6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Sem {
    Entry(u32),
    X,
    Y,
}

impl Sem {
    /// The semaphore-memory index: S[i] at i, X at `entries`, Y at `entries + 1`.
    pub fn memory_index(&self, entries: usize) -> usize {
        match self {
            Sem::Entry(i) => *i as usize,
            Sem::X => entries,
            Sem::Y => entries + 1,
        }
    }
}

/// An acquire condition (WQ-4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Condition {
    Equal,
    Geq,
    CircGeq,
    And,
    Nor,
}

impl Condition {
    pub const ALL: [Condition; 5] = [
        Condition::Equal,
        Condition::Geq,
        Condition::CircGeq,
        Condition::And,
        Condition::Nor,
    ];
    pub fn code(&self) -> u64 {
        match self {
            Condition::Equal => COND_EQUAL,
            Condition::Geq => COND_GEQ,
            Condition::CircGeq => COND_CIRC_GEQ,
            Condition::And => COND_AND,
            Condition::Nor => COND_NOR,
        }
    }
    pub fn from_code(code: u64) -> Option<Condition> {
        Condition::ALL.into_iter().find(|c| c.code() == code)
    }
}

/// One command of a block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    Launch {
        kernel: u32,
    },
    Wfi,
    Release {
        sem: Sem,
        value: u32,
        after_wfi: bool,
    },
    Acquire {
        sem: Sem,
        cond: Condition,
        value: u32,
    },
}

/// Why two words are not a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DecodeError {
    Opcode(u32),
    Condition(u32),
    SemIndex(u32),
}

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DecodeError::Opcode(o) => write!(f, "opcode {} is not a command", o),
            DecodeError::Condition(c) => write!(f, "acquire condition {} is not one of 0..4", c),
            DecodeError::SemIndex(i) => write!(f, "semaphore S[{}] is outside the ring", i),
        }
    }
}

fn sem_field(sem: Sem) -> u32 {
    match sem {
        Sem::Entry(i) => i & MAX_SEM_INDEX,
        Sem::X => 1 << NAMED_SEM_BIT,
        Sem::Y => (1 << NAMED_SEM_BIT) | 1,
    }
}

impl Command {
    /// The command's two words, header first.
    pub fn encode(&self) -> [u32; 2] {
        let op = |o: u64| (o as u32) << OPCODE_LSB;
        match *self {
            Command::Launch { kernel } => [op(OP_LAUNCH), kernel],
            Command::Wfi => [op(OP_WFI), 0],
            Command::Release {
                sem,
                value,
                after_wfi,
            } => [
                op(OP_RELEASE) | ((after_wfi as u32) << RELEASE_WFI_BIT) | sem_field(sem),
                value,
            ],
            Command::Acquire { sem, cond, value } => [
                op(OP_ACQUIRE) | ((cond.code() as u32) << COND_LSB) | sem_field(sem),
                value,
            ],
        }
    }

    /// Decode two words for a ring of `entries` entries, with the host's checks.
    pub fn decode(words: [u32; 2], entries: usize) -> Result<Command, DecodeError> {
        let [header, payload] = words;
        let sem = if header & (1 << NAMED_SEM_BIT) != 0 {
            if header & 1 == 0 {
                Sem::X
            } else {
                Sem::Y
            }
        } else {
            Sem::Entry(header & MAX_SEM_INDEX)
        };
        let sem_ok = |s: Sem| match s {
            Sem::Entry(i) if i as usize >= entries => Err(DecodeError::SemIndex(i)),
            s => Ok(s),
        };
        match (header >> OPCODE_LSB) as u64 {
            OP_LAUNCH => Ok(Command::Launch { kernel: payload }),
            OP_WFI => Ok(Command::Wfi),
            OP_RELEASE => Ok(Command::Release {
                sem: sem_ok(sem)?,
                value: payload,
                after_wfi: header & (1 << RELEASE_WFI_BIT) != 0,
            }),
            OP_ACQUIRE => {
                let code = (header >> COND_LSB) & 7;
                let cond = Condition::from_code(code as u64).ok_or(DecodeError::Condition(code))?;
                Ok(Command::Acquire {
                    sem: sem_ok(sem)?,
                    cond,
                    value: payload,
                })
            }
            other => Err(DecodeError::Opcode(other as u32)),
        }
    }

    /// The trace name of the command (`launch`, `wfi`, `release`, `acquire`).
    pub fn name(&self) -> &'static str {
        let op = match self {
            Command::Launch { .. } => OP_LAUNCH,
            Command::Wfi => OP_WFI,
            Command::Release { .. } => OP_RELEASE,
            Command::Acquire { .. } => OP_ACQUIRE,
        };
        opcode_name(op)
    }
}

/// The trace name of a header opcode (SPEC section 4: `launch`, `wfi`, `release`, `acquire`).
/// The host starts only commands it decoded, so `invalid` (any other opcode) never reaches a
/// trace.
pub fn opcode_name(opcode: u64) -> &'static str {
    match opcode {
        OP_LAUNCH => "launch",
        OP_WFI => "wfi",
        OP_RELEASE => "release",
        OP_ACQUIRE => "acquire",
        _ => "invalid",
    }
}

/// Encode a block (its words, two per command).
pub fn encode_block(commands: &[Command]) -> Vec<u32> {
    commands.iter().flat_map(|c| c.encode()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wq4_commands_round_trip() {
        let sems = [Sem::Entry(0), Sem::Entry(15), Sem::X, Sem::Y];
        let mut all = vec![Command::Wfi, Command::Launch { kernel: 77 }];
        for s in sems {
            all.push(Command::Release {
                sem: s,
                value: 9,
                after_wfi: true,
            });
            for c in Condition::ALL {
                all.push(Command::Acquire {
                    sem: s,
                    cond: c,
                    value: 0xFFFF_FFFF,
                });
            }
        }
        for c in all {
            assert_eq!(Command::decode(c.encode(), 16), Ok(c));
        }
    }

    #[test]
    fn wq10_malformed_commands_are_named() {
        assert_eq!(Command::decode([0, 0], 16), Err(DecodeError::Opcode(0)));
        assert_eq!(
            Command::decode([(4 << 28) | (5 << 25), 0], 16),
            Err(DecodeError::Condition(5))
        );
        assert_eq!(
            Command::decode([(3 << 28) | 16, 0], 16),
            Err(DecodeError::SemIndex(16))
        );
    }
}
