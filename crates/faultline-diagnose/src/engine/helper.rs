//! A second engine on a thread of its own, for independent focused checks
//! on the machine's second core (see docs/how-it-works.md, section 6, "Two
//! engines").
//!
//! Z3's terms belong to one context, and a context to one thread: the
//! helper builds its own engine over the same session, with its own context,
//! solvers and encodings, and hands back only plain data (verdicts, angelic
//! values, statistics, notes). What each engine checks is fixed before
//! either starts, and each engine's Z3 history is its own, so the results do
//! not depend on how the threads interleave.

use super::*;
use std::any::Any;
use std::sync::mpsc;

/// What a helper engine did that the engine it helped must report: plain
/// data, moved out of the helper's thread (its Z3 terms stay there).
pub struct Shared {
    stats: Stats,
    notes: Vec<String>,
    skipped: Vec<(usize, String)>,
    unencodable: BTreeSet<usize>,
    unencoded: BTreeSet<StmtId>,
    encoded: usize,
    work: u64,
}

/// Work for a helper engine: what it returns is downcast by the caller.
pub type Job<'s, 'p> = Box<dyn FnOnce(&mut Engine<'s, 'p>) -> Box<dyn Any + Send> + Send>;

type Reply = std::thread::Result<Box<dyn Any + Send>>;

/// A helper engine on a thread of its own, started by its first job
/// ([`Helper::in_parallel`]) and kept for the next ones (its context and
/// encodings too), within [`Engine::with_helper`].
pub struct Helper<'scope, 'env, 's, 'p> {
    scope: &'scope std::thread::Scope<'scope, 'env>,
    running: Option<Running<'scope, 's, 'p>>,
    /// The helper's engine borrows the session for the scope.
    _engine: std::marker::PhantomData<&'scope Engine<'s, 'p>>,
}

struct Running<'scope, 's, 'p> {
    jobs: mpsc::Sender<Job<'s, 'p>>,
    replies: mpsc::Receiver<Reply>,
    handle: std::thread::ScopedJoinHandle<'scope, Shared>,
}

impl<'s, 'p> Engine<'s, 'p> {
    /// Runs `body` on this engine with a [`Helper`] it may hand work to;
    /// the helper's statistics, notes and skipped tests are then this
    /// engine's.
    pub fn with_helper<T>(
        &mut self,
        body: impl for<'scope, 'env> FnOnce(&mut Engine<'s, 'p>, &mut Helper<'scope, 'env, 's, 'p>) -> T,
    ) -> T {
        std::thread::scope(|scope| {
            let mut helper = Helper {
                scope,
                running: None,
                _engine: std::marker::PhantomData,
            };
            let out = body(self, &mut helper);
            if let Some(r) = helper.running.take() {
                drop(r.jobs);
                match r.handle.join() {
                    Ok(shared) => self.absorb(shared),
                    Err(payload) => std::panic::resume_unwind(payload),
                }
            }
            out
        })
    }
}

impl<'scope, 'env, 's, 'p> Helper<'scope, 'env, 's, 'p> {
    /// Runs `mine` on `engine` and `theirs` on the helper engine (the same
    /// session, options and encoding; a Z3 context of its own) at the same
    /// time, within `engine`'s budget. If no thread can be started,
    /// `theirs` runs on `engine` after `mine`.
    pub fn in_parallel<A>(
        &mut self,
        engine: &mut Engine<'s, 'p>,
        mine: impl FnOnce(&mut Engine<'s, 'p>) -> A,
        theirs: Job<'s, 'p>,
    ) -> (A, Box<dyn Any + Send>)
    where
        's: 'scope,
        'p: 'scope,
    {
        if self.running.is_none() {
            self.running = self.start(engine);
        }
        let sent = match &self.running {
            Some(r) => r.jobs.send(theirs).map(|()| r).map_err(|e| e.0),
            None => Err(theirs),
        };
        let r = match sent {
            Ok(r) => r,
            Err(theirs) => {
                let a = mine(engine);
                return (a, theirs(engine));
            }
        };
        let a = mine(engine);
        match r.replies.recv() {
            Ok(Ok(b)) => (a, b),
            Ok(Err(payload)) => std::panic::resume_unwind(payload),
            Err(_) => panic!("the helper engine's thread ended with work sent to it"),
        }
    }

    /// The helper's thread, started.
    fn start(&self, engine: &Engine<'s, 'p>) -> Option<Running<'scope, 's, 'p>>
    where
        's: 'scope,
        'p: 'scope,
    {
        let session = engine.session;
        let mut options = engine.options.clone();
        // Progress is reported by the engine the user watches.
        options.progress = None;
        let encoding = engine.encoding;
        let budget = engine.budget.clone();
        let (jobs, inbox) = mpsc::channel::<Job<'s, 'p>>();
        let (outbox, replies) = mpsc::channel::<Reply>();
        let handle = std::thread::Builder::new()
            .name("helper".into())
            .stack_size(limits::STACK_SIZE)
            .spawn_scoped(self.scope, move || {
                let _scope = limits::enter(&budget);
                let mut engine = Engine::new(session, options, encoding);
                let from = engine.notes.len();
                for job in inbox {
                    let reply =
                        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job(&mut engine)));
                    let failed = reply.is_err();
                    if outbox.send(reply).is_err() || failed {
                        break;
                    }
                }
                engine.shared(from)
            })
            .ok()?;
        Some(Running {
            jobs,
            replies,
            handle,
        })
    }
}

impl<'s, 'p> Engine<'s, 'p> {
    /// What this (helper) engine did since it was made, its first `from`
    /// notes (made with it) aside.
    fn shared(&self, from: usize) -> Shared {
        Shared {
            stats: self.stats.clone(),
            notes: self.notes[from.min(self.notes.len())..].to_vec(),
            skipped: self.skipped.clone(),
            unencodable: self.unencodable.clone(),
            unencoded: self.unencoded.clone(),
            encoded: self.encoded,
            work: self.work_spent,
        }
    }

    /// Takes in what a helper engine did: its counts added (not the tests
    /// it encoded: it encodes again tests this engine did), its notes and
    /// skipped tests added where new.
    fn absorb(&mut self, h: Shared) {
        let s = &mut self.stats;
        s.solver_calls += h.stats.solver_calls;
        s.statement_instances += h.stats.statement_instances;
        s.iterations += h.stats.iterations;
        s.tests_reused += h.stats.tests_reused;
        s.encode_time += h.stats.encode_time;
        s.solve_time += h.stats.solve_time;
        for n in h.notes {
            self.note(n);
        }
        for (t, why) in h.skipped {
            self.skip(t, why);
        }
        self.unencodable.extend(h.unencodable);
        self.unencoded.extend(h.unencoded);
        self.encoded += h.encoded;
        self.work_spent += h.work;
    }

    /// What this engine's focused checks cost, a helper's included: the
    /// units of work of their encodings, deterministic, unlike time. (Not
    /// the solver's effort: reading Z3's statistics after a check changed
    /// what later checks on the same solver decided, see
    /// [`crate::profile::effort_count`].)
    pub fn cost_spent(&self) -> u64 {
        self.work_spent
    }
}
