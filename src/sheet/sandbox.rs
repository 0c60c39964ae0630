//! Where a kit's own templates run. A template is untrusted code: it renders in a
//! child process (this program again, started with [`WORKER_ARG`]) whose heap the
//! program caps at [`HEAP_CEILING_BYTES`], under a time limit, and a render that
//! overruns is killed, not abandoned. One child is kept per build thread, since
//! starting a process costs more than most renders.
//!
//! Without a registered program (the library's own tests and benches) renders run on
//! a worker thread under the time limit alone: a render that overruns is abandoned, and
//! its thread spends a core until the process ends. A program that builds kits it did
//! not write should therefore register itself, as the `tablekit` command does
//! (`src/launch.rs`): answer [`WORKER_ARG`] with [`serve_renders`] first thing in
//! `main`, then call [`run_renders_in`] with [`std::env::current_exe`].

use std::io::{Read, Write};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::Duration;

/// The first argument that makes the program a render worker: [`serve_renders`].
pub const WORKER_ARG: &str = "__render-templates";

/// The most heap a render worker may hold. The built-in templates need a few
/// megabytes; a template that doubles a string reaches this in a fraction of a second.
pub const HEAP_CEILING_BYTES: usize = 256 << 20;

/// The program to start as a render worker; unset, renders stay in this process.
static PROGRAM: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();

/// Runs every untrusted render in a child process of `program` from now on.
pub fn run_renders_in(program: std::path::PathBuf) {
    let _ = PROGRAM.set(program);
}

/// What a render that did not finish ran into.
#[derive(Debug, PartialEq)]
pub(crate) enum Stopped {
    /// It ran longer than its limit and was killed.
    Time,
    /// It asked for more than [`HEAP_CEILING_BYTES`] and its process ended.
    Memory,
    /// No worker could be started or reached.
    Unavailable(String),
}

/// One render for the worker: the template's text, its sheet name and the context
/// as JSON (numbers as `f64`, so they read back exactly as they were given).
#[derive(serde::Serialize, serde::Deserialize)]
struct Request {
    sheet: String,
    text: String,
    context: serde_json::Value,
}

/// Renders `text` with `context` in a worker process, waiting at most `limit`: the
/// rendered text or the template's own error, or why it was stopped. `None` when no
/// worker program is registered.
pub(crate) fn render_isolated(
    sheet: &str,
    text: &str,
    context: serde_json::Value,
    limit: Duration,
) -> Option<Result<Result<String, String>, Stopped>> {
    let program = PROGRAM.get()?;
    let request = Request { sheet: sheet.to_string(), text: text.to_string(), context };
    let bytes = match serde_json::to_vec(&request) {
        Ok(bytes) => bytes,
        Err(e) => return Some(Ok(Err(e.to_string()))),
    };
    Some(WORKER.with_borrow_mut(|worker| ask(worker, program, &bytes, limit)))
}

thread_local! {
    /// This thread's render worker, started on first use and replaced after a stop.
    static WORKER: std::cell::RefCell<Option<Worker>> = const { std::cell::RefCell::new(None) };
}

/// Sends one request to this thread's worker (starting one, or a second if the kept
/// one has gone) and waits for its answer.
fn ask(
    worker: &mut Option<Worker>,
    program: &std::path::Path,
    request: &[u8],
    limit: Duration,
) -> Result<Result<String, String>, Stopped> {
    let mut sent = false;
    for _ in 0..2 {
        if worker.is_none() {
            *worker = Some(Worker::start(program).map_err(Stopped::Unavailable)?);
        }
        let live = worker.as_mut().expect("just started");
        if write_frame(&mut live.requests, request).is_ok() {
            sent = true;
            break;
        }
        *worker = None;
    }
    if !sent {
        return Err(Stopped::Unavailable("the render worker does not answer".into()));
    }
    let live = worker.as_mut().expect("a request was sent");
    let answer = match live.replies.recv_timeout(limit) {
        Ok(frame) => serde_json::from_slice(&frame)
            .map_err(|e| Stopped::Unavailable(format!("the render worker: {e}"))),
        Err(RecvTimeoutError::Timeout) => Err(Stopped::Time),
        Err(RecvTimeoutError::Disconnected) => Err(Stopped::Memory),
    };
    if answer.is_err() {
        // Killed on drop: a render that overran is stopped here, not left running.
        *worker = None;
    }
    answer
}

/// A render worker process: requests go to its stdin, answers come back through a
/// thread that reads its stdout (so that waiting for one can time out).
struct Worker {
    process: std::process::Child,
    requests: std::process::ChildStdin,
    replies: Receiver<Vec<u8>>,
}

impl Worker {
    fn start(program: &std::path::Path) -> Result<Worker, String> {
        use std::process::Stdio;
        let mut process = std::process::Command::new(program)
            .arg(WORKER_ARG)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            // Its only words would be the allocator's, when the ceiling is reached.
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("could not start a render worker: {e}"))?;
        let requests = process.stdin.take().expect("piped");
        let mut answers = process.stdout.take().expect("piped");
        let (sender, replies) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            while let Ok(Some(frame)) = read_frame(&mut answers) {
                if sender.send(frame).is_err() {
                    break;
                }
            }
        });
        Ok(Worker { process, requests, replies })
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}

/// The worker's side: answers requests from stdin on stdout until stdin closes.
pub fn serve_renders() -> std::process::ExitCode {
    let mut input = std::io::stdin().lock();
    let mut output = std::io::stdout().lock();
    while let Ok(Some(frame)) = read_frame(&mut input) {
        let answer: Result<String, String> =
            match serde_json::from_slice::<Request>(&frame) {
                Ok(request) => {
                    let rendered = std::panic::catch_unwind(|| {
                        super::template::render_text(
                            &request.sheet,
                            &request.text,
                            &request.context,
                        )
                    });
                    rendered.unwrap_or_else(|_| Err("the template engine failed".into()))
                }
                Err(e) => Err(format!("a malformed request: {e}")),
            };
        let reply = serde_json::to_vec(&answer).expect("strings serialize");
        if write_frame(&mut output, &reply).is_err() {
            break;
        }
    }
    std::process::ExitCode::SUCCESS
}

/// The most a request or answer may hold: far more than any sheet's context.
const MAX_FRAME_BYTES: usize = 64 << 20;

fn write_frame(to: &mut impl Write, bytes: &[u8]) -> std::io::Result<()> {
    let len = u32::try_from(bytes.len()).map_err(std::io::Error::other)?;
    to.write_all(&len.to_le_bytes())?;
    to.write_all(bytes)?;
    to.flush()
}

/// The next length-prefixed frame, or `None` at the end of the stream.
fn read_frame(from: &mut impl Read) -> std::io::Result<Option<Vec<u8>>> {
    let mut len = [0u8; 4];
    match from.read_exact(&mut len) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => return Ok(None),
        Err(e) => return Err(e),
    }
    let len = u32::from_le_bytes(len) as usize;
    if len > MAX_FRAME_BYTES {
        return Err(std::io::Error::other("frame too large"));
    }
    let mut frame = vec![0; len];
    from.read_exact(&mut frame)?;
    Ok(Some(frame))
}

/// Runs `job` on this thread's worker thread and waits at most `limit` for its
/// result: `None` if it ran longer (or panicked). The in-process fallback, for
/// builds with no worker program.
pub(crate) fn on_worker_thread<T: Send + 'static>(
    job: impl FnOnce() -> T + Send + 'static,
    limit: Duration,
) -> Option<T> {
    let (done, result) = std::sync::mpsc::channel();
    let mut job: Job = Box::new(move || {
        let _ = done.send(job());
    });
    THREAD.with_borrow_mut(|worker| {
        loop {
            let sender = worker.get_or_insert_with(start_thread);
            match sender.send(job) {
                Ok(()) => break,
                // The worker is gone (a render panicked): start another.
                Err(std::sync::mpsc::SendError(returned)) => {
                    job = returned;
                    *worker = None;
                }
            }
        }
    });
    let outcome = result.recv_timeout(limit).ok();
    if outcome.is_none() {
        THREAD.with_borrow_mut(|worker| *worker = None);
    }
    outcome
}

type Job = Box<dyn FnOnce() + Send>;

thread_local! {
    /// Where this thread's in-process renders run. A worker that overran its limit
    /// cannot be stopped from outside: it is left running until the command ends.
    static THREAD: std::cell::RefCell<Option<std::sync::mpsc::Sender<Job>>> =
        const { std::cell::RefCell::new(None) };
}

fn start_thread() -> std::sync::mpsc::Sender<Job> {
    let (jobs, queue) = std::sync::mpsc::channel::<Job>();
    std::thread::spawn(move || {
        for job in queue {
            job();
        }
    });
    jobs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_on_one_thread_share_a_worker_and_survive_a_panic() {
        let limit = Duration::from_secs(5);
        let thread_of = || on_worker_thread(|| std::thread::current().id(), limit);
        let first = thread_of().unwrap();
        assert_ne!(first, std::thread::current().id(), "renders run on the worker");
        assert_eq!(thread_of().unwrap(), first, "and the worker is kept");
        assert_eq!(
            on_worker_thread(|| -> u8 { panic!("a render panicked") }, limit),
            None
        );
        assert!(on_worker_thread(|| 7, limit) == Some(7), "a new worker takes over");
    }

    #[test]
    fn frames_read_back_as_written_and_end_cleanly() {
        let mut stream = Vec::new();
        write_frame(&mut stream, b"one").unwrap();
        write_frame(&mut stream, b"").unwrap();
        let mut reader = stream.as_slice();
        assert_eq!(read_frame(&mut reader).unwrap().unwrap(), b"one");
        assert_eq!(read_frame(&mut reader).unwrap().unwrap(), b"");
        assert_eq!(read_frame(&mut reader).unwrap(), None);
        let huge = ((MAX_FRAME_BYTES + 1) as u32).to_le_bytes();
        assert!(read_frame(&mut huge.as_slice()).is_err());
    }
}
