//! A minimal LSP client over a child's stdio: JSON-RPC with `Content-Length` framing. A reader
//! thread takes the time of every message right after its last byte is read (before the JSON is
//! parsed), answers the server's own requests (`workspace/configuration` with nulls, anything else
//! with a null result) and hands the rest to the caller with that time.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub struct Message {
    pub at: Instant,
    pub value: Value,
}

pub struct Client {
    child: Child,
    stdin: Arc<Mutex<ChildStdin>>,
    incoming: Receiver<Message>,
    next_id: i64,
    /// Notifications that arrived while waiting for something else, oldest first.
    pub backlog: Vec<Message>,
}

fn write_message(w: &mut impl Write, value: &Value) -> std::io::Result<()> {
    let body = serde_json::to_vec(value).expect("serialisable");
    let mut framed = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    framed.extend_from_slice(&body);
    w.write_all(&framed)?;
    w.flush()
}

fn reader(stdout: impl Read, stdin: Arc<Mutex<ChildStdin>>, tx: std::sync::mpsc::Sender<Message>) {
    let mut r = BufReader::with_capacity(1 << 20, stdout);
    let mut line = String::new();
    loop {
        let mut length = None;
        loop {
            line.clear();
            match r.read_line(&mut line) {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
            let l = line.trim_end();
            if l.is_empty() {
                break;
            }
            if let Some(v) = l.strip_prefix("Content-Length:") {
                length = v.trim().parse::<usize>().ok();
            }
        }
        let Some(n) = length else { return };
        let mut body = vec![0u8; n];
        if r.read_exact(&mut body).is_err() {
            return;
        }
        let at = Instant::now();
        let Ok(value) = serde_json::from_slice::<Value>(&body) else {
            eprintln!("unparsable message from the server ({n} bytes)");
            continue;
        };
        if value.get("method").is_some() && value.get("id").is_some() {
            // A request from the server: answer at once.
            if std::env::var_os("BENCH_LSP_DEBUG").is_some() {
                eprintln!("server request: {}", value["method"]);
            }
            let result = if value["method"] == "workspace/configuration" {
                let items = value["params"]["items"].as_array().map_or(0, Vec::len);
                Value::Array(vec![Value::Null; items])
            } else if value["method"] == "html/customDataContent" {
                // The HTML server reads its custom data (initializationOptions.dataPaths)
                // through the client.
                let p = &value["params"];
                let path = p.as_str().or_else(|| p[0].as_str()).unwrap_or("");
                let path = path.strip_prefix("file://").unwrap_or(path);
                Value::String(std::fs::read_to_string(path).unwrap_or_default())
            } else if value["method"] == "workspace/applyEdit" {
                // The benchmark client holds no documents to edit: it says so, and the server
                // keeps its results as unwritten (what an editor that refuses does).
                json!({"applied": false, "failureReason": "the benchmark client applies no edits"})
            } else {
                Value::Null
            };
            let answer = json!({"jsonrpc": "2.0", "id": value["id"], "result": result});
            let _ = write_message(&mut *stdin.lock().unwrap(), &answer);
            continue;
        }
        if tx.send(Message { at, value }).is_err() {
            return;
        }
    }
}

impl Client {
    /// Starts `cmd` with its stderr going to `stderr`.
    pub fn start(cmd: &[String], stderr: std::fs::File, env: &[(String, String)]) -> std::io::Result<Client> {
        let mut command = Command::new(&cmd[0]);
        command
            .args(&cmd[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::from(stderr));
        for (k, v) in env {
            command.env(k, v);
        }
        let mut child = command.spawn()?;
        let stdin = Arc::new(Mutex::new(child.stdin.take().unwrap()));
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        let w = stdin.clone();
        std::thread::spawn(move || reader(stdout, w, tx));
        Ok(Client {
            child,
            stdin,
            incoming: rx,
            next_id: 0,
            backlog: Vec::new(),
        })
    }

    /// Sends a notification; returns the time just before its first byte was written.
    pub fn notify(&mut self, method: &str, params: Value) -> Instant {
        let msg = json!({"jsonrpc": "2.0", "method": method, "params": params});
        let mut w = self.stdin.lock().unwrap();
        let at = Instant::now();
        write_message(&mut *w, &msg).expect("server's stdin");
        at
    }

    /// Sends a request and waits for its response: (latency, result).
    pub fn request(&mut self, method: &str, params: Value, timeout: Duration) -> (Duration, Value) {
        match self.try_request(method, params, timeout) {
            Ok(answer) => answer,
            Err(e) => panic!("{method}: {e}"),
        }
    }

    /// [`Client::request`] that says why instead of panicking (the server died, timed out or
    /// answered with an error).
    pub fn try_request(&mut self, method: &str, params: Value, timeout: Duration) -> Result<(Duration, Value), String> {
        self.next_id += 1;
        let id = self.next_id;
        let msg = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        let sent = {
            let mut w = self.stdin.lock().unwrap();
            let at = Instant::now();
            write_message(&mut *w, &msg).map_err(|e| format!("the server's stdin: {e}"))?;
            at
        };
        let m = self.try_wait(timeout, |v| v.get("method").is_none() && v["id"] == json!(id))?;
        if let Some(e) = m.value.get("error") {
            return Err(format!("failed: {e}"));
        }
        Ok((m.at - sent, m.value["result"].clone()))
    }

    /// Waits for the first message that `pred` accepts (looking at the backlog first); keeps
    /// the others in the backlog.
    pub fn wait(&mut self, timeout: Duration, pred: impl Fn(&Value) -> bool) -> Message {
        self.try_wait(timeout, pred).unwrap_or_else(|e| panic!("{e}"))
    }

    /// [`Client::wait`] that says why it found nothing.
    pub fn try_wait(&mut self, timeout: Duration, pred: impl Fn(&Value) -> bool) -> Result<Message, String> {
        if let Some(i) = self.backlog.iter().position(|m| pred(&m.value)) {
            return Ok(self.backlog.remove(i));
        }
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.incoming.recv_timeout(left) {
                Ok(m) if pred(&m.value) => return Ok(m),
                Ok(m) => {
                    // Keep notifications that matter (diagnostics); drop log chatter.
                    if m.value["method"] == "textDocument/publishDiagnostics" {
                        self.backlog.push(m);
                    }
                }
                Err(RecvTimeoutError::Timeout) => return Err(format!("no answer from the server within {timeout:?}")),
                Err(RecvTimeoutError::Disconnected) => return Err("the server closed its output".into()),
            }
        }
    }

    /// `shutdown` + `exit`, then waits for the process (killed after 5 s).
    pub fn stop(mut self) {
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            self.request("shutdown", Value::Null, Duration::from_secs(10));
        }));
        let _ = write_message(
            &mut *self.stdin.lock().unwrap(),
            &json!({"jsonrpc": "2.0", "method": "exit"}),
        );
        let until = Instant::now() + Duration::from_secs(5);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}
