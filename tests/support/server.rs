//! A `tablekit serve` started on an ephemeral loopback port for one test, and a
//! plain HTTP/1.1 client that can send what a browser never would (a wrong `Host`,
//! a hostile body), so each answer is read exactly as it came.

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A running server, stopped when dropped.
pub struct Server {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub host: String,
    /// Its temporary folder (`TMPDIR`) and configuration folder.
    pub temp: tempfile::TempDir,
    said: std::sync::Arc<std::sync::Mutex<String>>,
    reader: Option<std::thread::JoinHandle<()>>,
}

/// One answer.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Reply {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!("not JSON ({e}): {}", String::from_utf8_lossy(&self.body))
        })
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

impl Server {
    /// Starts the binary with its built-in kits, from an empty folder, with its own
    /// configuration and temporary folders.
    pub fn start() -> Server {
        Server::start_with(&[])
    }

    /// Starts the binary with extra arguments after `serve --port 0`.
    pub fn start_with(args: &[&str]) -> Server {
        let temp = tempfile::tempdir().unwrap();
        for sub in ["tmp", "config", "cwd"] {
            std::fs::create_dir_all(temp.path().join(sub)).unwrap();
        }
        let mut child = Command::new(env!("CARGO_BIN_EXE_tablekit"))
            .args(["serve", "--port", "0"])
            .args(args)
            .current_dir(temp.path().join("cwd"))
            .env("TMPDIR", temp.path().join("tmp"))
            .env("TABLEKIT_CONFIG_DIR", temp.path().join("config"))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("tablekit serve starts");
        let mut first = String::new();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        stdout.read_line(&mut first).unwrap();
        // Keep reading what it says, so that its standard output never closes.
        let said = std::sync::Arc::new(std::sync::Mutex::new(first.clone()));
        let into = said.clone();
        let reader = std::thread::spawn(move || {
            let mut rest = String::new();
            let _ = stdout.read_to_string(&mut rest);
            into.lock().unwrap().push_str(&rest);
        });
        let host = first
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_else(|| panic!("no address in {first:?}"))
            .to_string();
        Server { child, host, temp, said, reader: Some(reader) }
    }

    /// Stops the server and returns what it wrote to standard error.
    pub fn stop(&mut self) -> String {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let mut text = String::new();
        if let Some(mut stderr) = self.child.stderr.take() {
            let _ = stderr.read_to_string(&mut text);
        }
        text
    }

    /// Sends Ctrl-C's signal and waits: whether it exited with success, and what it
    /// printed.
    pub fn interrupt(&mut self) -> (bool, String) {
        let pid = self.child.id().to_string();
        Command::new("kill").args(["-INT", &pid]).status().expect("kill runs");
        let status = self.child.wait().unwrap();
        if let Some(reader) = self.reader.take() {
            let _ = reader.join();
        }
        (status.success(), self.said.lock().unwrap().clone())
    }

    /// The server's temporary folder (its `TMPDIR`).
    pub fn tmp(&self) -> PathBuf {
        self.temp.path().join("tmp")
    }

    /// The configuration folder it reads printers.toml from.
    pub fn config(&self) -> PathBuf {
        self.temp.path().join("config")
    }

    /// `GET path` with the right `Host`.
    pub fn get(&self, path: &str) -> Reply {
        self.send("GET", path, &[], b"")
    }

    /// `POST path` with a JSON body.
    pub fn post_json(&self, path: &str, body: &serde_json::Value) -> Reply {
        let body = serde_json::to_vec(body).unwrap();
        self.send("POST", path, &[("Content-Type", "application/json")], &body)
    }

    /// A request with the right `Host` and the given extra headers.
    pub fn send(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> Reply {
        let host = self.host.clone();
        let mut all = vec![("Host", host.as_str())];
        all.extend_from_slice(headers);
        self.raw(method, path, &all, body)
    }

    /// A request with exactly these headers (and `Content-Length`, `Connection`).
    pub fn raw(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> Reply {
        let mut stream = TcpStream::connect(&self.host).expect("the server accepts");
        stream.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        let mut head = format!("{method} {path} HTTP/1.1\r\n");
        for (name, value) in headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        head.push_str(&format!(
            "Content-Length: {}\r\nConnection: close\r\n\r\n",
            body.len()
        ));
        stream.write_all(head.as_bytes()).unwrap();
        // The server may answer (413) before taking the whole body.
        let _ = stream.write_all(body);
        let mut bytes = Vec::new();
        let _ = stream.read_to_end(&mut bytes);
        parse(&bytes)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A whole HTTP/1.1 response (the server sends `Content-Length`, or closes).
fn parse(bytes: &[u8]) -> Reply {
    let split = bytes.windows(4).position(|w| w == b"\r\n\r\n").expect("a response head");
    let head = String::from_utf8_lossy(&bytes[..split]);
    let mut lines = head.split("\r\n");
    let status = lines.next().unwrap().split(' ').nth(1).unwrap().parse().unwrap();
    let headers = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(n, v)| (n.trim().to_string(), v.trim().to_string()))
        .collect();
    Reply { status, headers, body: bytes[split + 4..].to_vec() }
}

/// The files a Crossway build's players' zip holds, in `folder/`.
pub fn crossway_player_files(folder: &str) -> Vec<String> {
    ["contents", "board", "quick-start", "stones", "ledger", "rule-card"]
        .iter()
        .map(|sheet| format!("{folder}/{sheet}.pdf"))
        .collect()
}

/// Every entry of a zip, in its order: name and bytes.
pub fn unzip(bytes: &[u8]) -> Vec<(String, Vec<u8>)> {
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
    (0..archive.len())
        .map(|i| {
            let mut entry = archive.by_index(i).unwrap();
            let mut data = Vec::new();
            entry.read_to_end(&mut data).unwrap();
            (entry.name().unwrap().to_string(), data)
        })
        .collect()
}
