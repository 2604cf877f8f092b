//! Our own stdio framing under rmcp (rules rmcp's reader does not give): one JSON-RPC message per line; a line over 262,144 bytes
//! gets an error reply and serving goes on; garbage gets -32700; batches
//! (only in a session that negotiated 2025-03-26 with `initialize`, the one
//! revision that has them, and never holding `initialize`) are split for
//! rmcp and answered as one array; a malformed `initialize` is told what is
//! wrong with its params; at most 8 document requests
//! (`tools/call`, batch elements included) in flight, the rest wait in a
//! bounded queue (`busy` beyond it) while stdin keeps being read;
//! `notifications/cancelled` also frees a queued or in-flight slot; a
//! notification before any request is dropped harmlessly; at EOF the
//! requests already read are still answered, for at most [`EOF_GRACE`],
//! then the rest is cancelled. stdout carries protocol only, one writer
//! shared by rmcp and us.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::{Arc, Mutex};

use rmcp::service::{RoleServer, RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

/// Longest accepted line, newline not counted (256 KiB).
pub const MAX_LINE_BYTES: usize = 262_144;
/// Document requests served at once.
pub const MAX_IN_FLIGHT: usize = 8;
/// Document requests that may wait for a slot; more get `busy`.
pub const MAX_QUEUED: usize = 64;
/// How long requests read before stdin closed may take to be answered
/// (`echo '…' | lectern mcp` gets its replies; a slow one is cancelled).
pub const EOF_GRACE: std::time::Duration = std::time::Duration::from_millis(500);

type Writer = Arc<tokio::sync::Mutex<Box<dyn AsyncWrite + Send + Unpin>>>;

/// Flow control shared by the reader task and `send`.
#[derive(Default)]
struct Flow {
    started: bool,
    /// Requests handed on (or queued) and not answered yet.
    unanswered: HashSet<String>,
    in_flight: HashSet<String>,
    queue: VecDeque<(String, Value)>,
    /// Request id → batch number, for requests that came in a batch.
    batch_of: HashMap<String, u64>,
    batches: HashMap<u64, Batch>,
    next_batch: u64,
    /// The id of the `initialize` request being answered.
    initialize: Option<String>,
    /// The revision `initialize` asked for, then the one it negotiated.
    revision: Option<String>,
}

/// The one revision with JSON-RPC batches.
const BATCH_REVISION: &str = "2025-03-26";

struct Batch {
    waiting: usize,
    replies: Vec<Value>,
    /// Still being split by the reader: not complete even if nothing is
    /// awaited yet (regression: `batch_answered_before_its_last_invalid_element`).
    open: bool,
}

/// The transport rmcp serves on.
pub struct LineTransport {
    inbox: mpsc::UnboundedReceiver<Value>,
    writer: Writer,
    flow: Arc<Mutex<Flow>>,
    to_rmcp: mpsc::UnboundedSender<Value>,
    eof: CancellationToken,
}

impl LineTransport {
    /// Starts reading `input` on a task; `eof` is cancelled when it ends.
    pub fn new(
        input: impl AsyncRead + Send + Unpin + 'static,
        output: impl AsyncWrite + Send + Unpin + 'static,
        eof: CancellationToken,
    ) -> LineTransport {
        let (to_rmcp, inbox) = mpsc::unbounded_channel();
        let writer: Writer = Arc::new(tokio::sync::Mutex::new(Box::new(output)));
        let flow = Arc::new(Mutex::new(Flow::default()));
        let reader = Reader { flow: flow.clone(), writer: writer.clone(), to_rmcp: to_rmcp.clone() };
        let done = eof.clone();
        tokio::spawn(async move {
            reader.run(input).await;
            done.cancel();
        });
        LineTransport { inbox, writer, flow, to_rmcp, eof }
    }
}

/// Returns once stdin has ended and every request read from it is answered.
async fn answered_after_eof(eof: &CancellationToken, flow: &Mutex<Flow>) {
    eof.cancelled().await;
    while !flow.lock().expect("flow lock").unanswered.is_empty() {
        tokio::time::sleep(std::time::Duration::from_millis(2)).await;
    }
}

struct Reader {
    flow: Arc<Mutex<Flow>>,
    writer: Writer,
    to_rmcp: mpsc::UnboundedSender<Value>,
}

impl Reader {
    async fn run(&self, input: impl AsyncRead + Unpin) {
        let mut input = BufReader::with_capacity(64 * 1024, input);
        let mut line = Vec::with_capacity(4096);
        loop {
            line.clear();
            match read_line(&mut input, &mut line).await {
                Ok(Line::Eof) => return,
                Ok(Line::TooLong(len)) => {
                    let id = sniff_id(&line);
                    let message = format!(
                        "message of {len} bytes is too long: at most {MAX_LINE_BYTES} bytes per line are allowed"
                    );
                    self.write(&error(id, -32600, &message)).await;
                }
                Ok(Line::Complete) => self.line(&line).await,
                Err(e) => {
                    tracing::warn!("stdin: {e}");
                    return;
                }
            }
        }
    }

    async fn line(&self, bytes: &[u8]) {
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return;
        }
        let value: Value = match serde_json::from_slice(bytes) {
            Ok(v) => v,
            Err(e) => {
                self.write(&error(Value::Null, -32700, &format!("parse error: {e}"))).await;
                return;
            }
        };
        match value {
            Value::Array(items) if items.is_empty() => {
                self.write(&error(Value::Null, -32600, "an empty batch is not a valid request")).await;
            }
            Value::Array(items) => {
                let revision = self.flow.lock().expect("flow lock").revision.clone();
                match revision.as_deref() {
                    Some(BATCH_REVISION) => self.batch(items).await,
                    Some(other) => {
                        let message = format!(
                            "JSON-RPC batches are not part of MCP revision {other} (only {BATCH_REVISION} has them): send one message per line"
                        );
                        self.write(&error(Value::Null, -32600, &message)).await;
                    }
                    None => {
                        let message = format!(
                            "JSON-RPC batches are part of MCP revision {BATCH_REVISION} only, and this session has not negotiated it with initialize: send one message per line"
                        );
                        self.write(&error(Value::Null, -32600, &message)).await;
                    }
                }
            }
            other => {
                if let Some(reply) = self.one(other, None) {
                    self.write(&reply).await;
                }
            }
        }
    }

    /// Splits a batch: requests go to rmcp one by one and their replies are
    /// gathered into one array; invalid elements are answered in it directly.
    async fn batch(&self, items: Vec<Value>) {
        let number = {
            let mut flow = self.flow.lock().expect("flow lock");
            flow.next_batch += 1;
            let n = flow.next_batch;
            let waiting = items.iter().filter(|i| is_request(i)).count();
            flow.batches.insert(n, Batch { waiting, replies: Vec::new(), open: true });
            n
        };
        for item in items {
            let counted = is_request(&item);
            if let Some(reply) = self.one(item, Some(number)) {
                let mut flow = self.flow.lock().expect("flow lock");
                let batch = flow.batches.get_mut(&number).expect("an open batch stays until closed");
                batch.replies.push(reply);
                if counted {
                    batch.waiting = batch.waiting.saturating_sub(1);
                }
            }
        }
        let leftover = {
            let mut flow = self.flow.lock().expect("flow lock");
            if let Some(batch) = flow.batches.get_mut(&number) {
                batch.open = false;
            }
            finish_batch(&mut flow, number)
        };
        if let Some(array) = leftover {
            self.write(&array).await;
        }
    }

    /// Routes one message; returns a reply to write ourselves, if any.
    fn one(&self, message: Value, batch: Option<u64>) -> Option<Value> {
        let id = message.get("id").cloned();
        let method = message.get("method").and_then(Value::as_str).map(str::to_owned);
        let is_notification = method.is_some() && id.is_none();
        if !message.is_object()
            || (method.is_none() && message.get("result").is_none() && message.get("error").is_none())
        {
            return Some(error(
                id.unwrap_or(Value::Null),
                -32600,
                "not a JSON-RPC 2.0 request, response or notification",
            ));
        }
        if method.as_deref() == Some("initialize") {
            if batch.is_some() {
                return Some(error(
                    id.unwrap_or(Value::Null),
                    -32600,
                    "initialize must not be part of a JSON-RPC batch: send it on a line of its own",
                ));
            }
            if let Some(problem) = initialize_problem(&message) {
                return Some(error(id.unwrap_or(Value::Null), -32602, &problem));
            }
        }
        if serde_json::from_value::<RxJsonRpcMessage<RoleServer>>(message.clone()).is_err() {
            return match (id, is_notification) {
                (_, true) => None,
                (Some(id), false) => Some(error(
                    id,
                    -32600,
                    "invalid request: it needs \"jsonrpc\": \"2.0\", an \"id\", a \"method\" and object \"params\"",
                )),
                (None, false) => Some(error(Value::Null, -32600, "invalid request")),
            };
        }
        let mut flow = self.flow.lock().expect("flow lock");
        if is_notification {
            if !flow.started {
                tracing::debug!("dropping a notification sent before any request");
                return None;
            }
            if method.as_deref() == Some("notifications/cancelled") {
                let target = message.pointer("/params/requestId").map(key);
                if let Some(target) = target {
                    flow.unanswered.remove(&target);
                    if let Some(pos) = flow.queue.iter().position(|(k, _)| *k == target) {
                        flow.queue.remove(pos);
                        forget_batch_member(&mut flow, &target);
                        return None;
                    }
                    if flow.in_flight.remove(&target) {
                        forget_batch_member(&mut flow, &target);
                        self.release(&mut flow);
                    }
                }
            }
        } else if method.is_some() {
            flow.started = true;
            let k = key(id.as_ref().expect("requests have ids"));
            if let Some(n) = batch {
                flow.batch_of.insert(k.clone(), n);
            }
            if method.as_deref() == Some("initialize") {
                flow.initialize = Some(k.clone());
                // rmcp echoes a revision it serves, so a batch pipelined right
                // behind this request is judged by it; the answer has the last word.
                flow.revision =
                    message.pointer("/params/protocolVersion").and_then(Value::as_str).map(str::to_owned);
            }
            if method.as_deref() == Some("tools/call") {
                if flow.in_flight.len() >= MAX_IN_FLIGHT {
                    if flow.queue.len() >= MAX_QUEUED {
                        flow.batch_of.remove(&k);
                        return Some(busy(id.expect("requests have ids"), &message));
                    }
                    flow.unanswered.insert(k.clone());
                    flow.queue.push_back((k, message));
                    return None;
                }
                flow.in_flight.insert(k.clone());
            }
            flow.unanswered.insert(k);
        }
        let _ = self.to_rmcp.send(message);
        None
    }

    /// Starts queued requests while slots are free.
    fn release(&self, flow: &mut Flow) {
        release(flow, &self.to_rmcp);
    }

    async fn write(&self, value: &Value) {
        write_value(&self.writer, value).await;
    }
}

fn release(flow: &mut Flow, to_rmcp: &mpsc::UnboundedSender<Value>) {
    while flow.in_flight.len() < MAX_IN_FLIGHT {
        let Some((k, message)) = flow.queue.pop_front() else { break };
        flow.in_flight.insert(k);
        let _ = to_rmcp.send(message);
    }
}

fn forget_batch_member(flow: &mut Flow, k: &str) {
    if let Some(n) = flow.batch_of.remove(k)
        && let Some(b) = flow.batches.get_mut(&n)
    {
        b.waiting = b.waiting.saturating_sub(1);
    }
}

/// The batch's reply array once nothing more is awaited.
fn finish_batch(flow: &mut Flow, number: u64) -> Option<Value> {
    let done = flow.batches.get(&number).is_some_and(|b| b.waiting == 0 && !b.open);
    if !done {
        return None;
    }
    let batch = flow.batches.remove(&number)?;
    (!batch.replies.is_empty()).then_some(Value::Array(batch.replies))
}

fn is_request(v: &Value) -> bool {
    v.get("method").is_some() && v.get("id").is_some()
}

/// A map key for a JSON-RPC id (numbers and strings stay distinct).
fn key(id: &Value) -> String {
    id.to_string()
}

fn error(id: Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

/// `busy`, as a tool error result (the shape every tool error has).
fn busy(id: Value, request: &Value) -> Value {
    let message = format!(
        "too many documentation requests at once: {MAX_IN_FLIGHT} are being served and {MAX_QUEUED} are waiting; retry when one finishes"
    );
    let body = json!({"error": {"code": "busy", "message": message}});
    let mut result = json!({
        "content": [{"type": "text", "text": body.to_string()}],
        "structuredContent": body,
        "isError": true,
    });
    if request.pointer("/params/_meta/io.modelcontextprotocol~1protocolVersion").is_some() {
        result["resultType"] = json!("complete");
    }
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

/// What is wrong with an `initialize` request's params, if anything: the
/// shared check, with rmcp's decoding of well-formed params.
fn initialize_problem(message: &Value) -> Option<String> {
    lectern_library::initialize::initialize_params_problem(message, |params| {
        serde_json::from_value::<rmcp::model::InitializeRequestParams>(Value::Object(params.clone()))
            .map(drop)
            .map_err(|e| e.to_string())
    })
}

/// Finds `"id": <number or string>` in the start of an over-long line, so its
/// error reply can name the request.
fn sniff_id(prefix: &[u8]) -> Value {
    let text = String::from_utf8_lossy(&prefix[..prefix.len().min(4096)]);
    let Some(at) = text.find("\"id\"") else { return Value::Null };
    let rest = text[at + 4..].trim_start();
    let Some(rest) = rest.strip_prefix(':') else { return Value::Null };
    let rest = rest.trim_start();
    let mut de = serde_json::Deserializer::from_str(rest).into_iter::<Value>();
    match de.next() {
        Some(Ok(v @ (Value::Number(_) | Value::String(_)))) => v,
        _ => Value::Null,
    }
}

enum Line {
    Complete,
    TooLong(usize),
    Eof,
}

/// Reads one line into `buf` (newline stripped), keeping at most
/// `MAX_LINE_BYTES + 1` bytes of it and discarding the rest of a longer one.
async fn read_line(input: &mut (impl AsyncBufReadExt + Unpin), buf: &mut Vec<u8>) -> std::io::Result<Line> {
    let mut total = 0usize;
    let mut saw_any = false;
    loop {
        let chunk = input.fill_buf().await?;
        if chunk.is_empty() {
            return Ok(if !saw_any {
                Line::Eof
            } else if total > MAX_LINE_BYTES {
                Line::TooLong(total)
            } else {
                Line::Complete
            });
        }
        saw_any = true;
        let (part, found) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], Some(i)),
            None => (chunk, None),
        };
        if buf.len() <= MAX_LINE_BYTES {
            let room = MAX_LINE_BYTES + 1 - buf.len();
            buf.extend_from_slice(&part[..part.len().min(room)]);
        }
        total += part.len();
        let consumed = found.map_or(chunk.len(), |i| i + 1);
        input.consume(consumed);
        if found.is_some() {
            if buf.last() == Some(&b'\r') && total <= MAX_LINE_BYTES + 1 {
                buf.pop();
                total -= 1;
            }
            return Ok(if total > MAX_LINE_BYTES { Line::TooLong(total) } else { Line::Complete });
        }
    }
}

async fn write_value(writer: &Writer, value: &Value) {
    let mut bytes = serde_json::to_vec(value).expect("JSON serialises");
    bytes.push(b'\n');
    let mut w = writer.lock().await;
    if let Err(e) = w.write_all(&bytes).await.and(w.flush().await) {
        tracing::debug!("stdout: {e}");
    }
}

impl Transport<RoleServer> for LineTransport {
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let writer = self.writer.clone();
        let flow = self.flow.clone();
        let to_rmcp = self.to_rmcp.clone();
        async move {
            let value = serde_json::to_value(&item).map_err(std::io::Error::other)?;
            let id = match &value {
                Value::Object(o) if o.contains_key("result") || o.contains_key("error") => {
                    o.get("id").map(key)
                }
                _ => None,
            };
            let mut batch_reply = None;
            if let Some(k) = id.clone() {
                let mut flow = flow.lock().expect("flow lock");
                if flow.initialize.as_ref() == Some(&k) {
                    flow.initialize = None;
                    let negotiated = value.pointer("/result/protocolVersion").and_then(Value::as_str);
                    if let Some(revision) = negotiated {
                        flow.revision = Some(revision.to_owned());
                    }
                }
                if flow.in_flight.remove(&k) {
                    release(&mut flow, &to_rmcp);
                }
                if let Some(n) = flow.batch_of.remove(&k) {
                    if let Some(b) = flow.batches.get_mut(&n) {
                        b.replies.push(value.clone());
                        b.waiting = b.waiting.saturating_sub(1);
                    }
                    batch_reply = Some(finish_batch(&mut flow, n));
                }
            }
            match batch_reply {
                Some(Some(array)) => write_value(&writer, &array).await,
                Some(None) => {}
                None => write_value(&writer, &value).await,
            }
            // Answered once written: then input that has ended may end serving.
            if let Some(k) = id {
                flow.lock().expect("flow lock").unanswered.remove(&k);
            }
            Ok(())
        }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            // What was read comes first; input that has ended ends serving
            // once every request read is answered.
            let value = tokio::select! {
                biased;
                v = self.inbox.recv() => v?,
                () = answered_after_eof(&self.eof, &self.flow) => return None,
            };
            match serde_json::from_value(value) {
                Ok(message) => return Some(message),
                Err(e) => tracing::debug!("skipping a message rmcp cannot take: {e}"),
            }
        }
    }

    fn close(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        let writer = self.writer.clone();
        async move { writer.lock().await.flush().await }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_found_at_the_start_of_long_lines() {
        assert_eq!(sniff_id(br#"{"jsonrpc":"2.0","id": 7,"method":"x","params":{"a":"#), json!(7));
        assert_eq!(sniff_id(br#"{"id":"abc","#), json!("abc"));
        assert_eq!(sniff_id(br#"{"method":"x"#), Value::Null);
    }

    #[tokio::test]
    async fn lines_are_capped_without_buffering_the_rest() {
        let long = vec![b'x'; MAX_LINE_BYTES + 10];
        let mut input: Vec<u8> = long.clone();
        input.push(b'\n');
        input.extend_from_slice(b"{}\n");
        let mut reader = BufReader::new(&input[..]);
        let mut buf = Vec::new();
        assert!(
            matches!(read_line(&mut reader, &mut buf).await.unwrap(), Line::TooLong(n) if n == MAX_LINE_BYTES + 10)
        );
        assert!(buf.len() <= MAX_LINE_BYTES + 1);
        buf.clear();
        assert!(matches!(read_line(&mut reader, &mut buf).await.unwrap(), Line::Complete));
        assert_eq!(buf, b"{}");
        buf.clear();
        assert!(matches!(read_line(&mut reader, &mut buf).await.unwrap(), Line::Eof));
    }
}
