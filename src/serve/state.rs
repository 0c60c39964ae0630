//! What the server keeps between requests: the kits, the page's words, the last few
//! builds and uploads (bounded), and the pool that builds run on.

use std::collections::{BTreeMap, VecDeque};
use std::sync::atomic::AtomicUsize;
use std::sync::{Arc, Mutex};

use tokio::sync::Semaphore;

use super::words::Words;
use crate::kit::Kit;
use crate::pipeline::{Built, Verified};

/// The builds kept for their previews and downloads: the last few, so that a burst
/// of form changes cannot fill memory.
pub const KEPT_BUILDS: usize = 8;

/// The uploaded kits kept.
pub const KEPT_UPLOADS: usize = 8;

/// Requests that may wait for a free builder before the server says it is busy.
pub const MAX_WAITING: usize = 32;

/// One build, kept for its previews and downloads.
pub struct Build {
    /// `crossway-en-a4-9x9`: the start of every file name it offers.
    pub name: String,
    /// Its language, for the previews' words.
    pub lang: String,
    /// The pipeline's result.
    pub built: Built,
}

/// A kit the page offers, its examples verified once when it was loaded or uploaded
/// and shared by every build of it.
#[derive(Clone)]
pub struct Offered {
    /// The kit.
    pub kit: Kit,
    /// Its examples, replayed by the rules.
    pub verified: Verified,
}

/// The server's shared state.
pub struct AppState {
    /// The kits offered, in order.
    pub kits: Vec<Offered>,
    /// The page's words.
    pub words: Words,
    /// The `Host` headers the server answers to (`127.0.0.1:8080`, `localhost:8080`).
    pub hosts: Vec<String>,
    /// Listening beyond loopback (`--listen`): any numeric address is a good `Host`.
    pub beyond_loopback: bool,
    /// Builds by id.
    pub builds: Mutex<Recent<Arc<Build>>>,
    /// Uploaded kits by token.
    pub uploads: Mutex<Recent<Arc<Offered>>>,
    /// Each kit's picture, made on first request.
    pub thumbnails: Mutex<BTreeMap<String, Arc<Vec<u8>>>>,
    /// One permit per builder.
    pub pool: Semaphore,
    /// Requests waiting for a permit.
    pub waiting: AtomicUsize,
    /// Shapers no build is using, one per builder at most: each keeps what it shaped
    /// for the next build it is handed (a build with a new one shaped for 49-51 ms a
    /// round of `scripts/bench-serve.sh` rather than 44-46).
    pub shapers: Mutex<Vec<crate::text::Shaper>>,
}

impl AppState {
    /// The kit a form names: a built-in id, or `upload:<token>`.
    pub fn kit(&self, id: &str) -> Option<Offered> {
        match id.strip_prefix("upload:") {
            Some(token) => self.uploads.lock().ok()?.get(token).map(|k| (*k).clone()),
            None => self.kits.iter().find(|k| k.kit.id == id).cloned(),
        }
    }
}

/// The last `capacity` values by key, the least recently used dropped first.
pub struct Recent<V> {
    capacity: usize,
    items: VecDeque<(String, V)>,
}

impl<V: Clone> Recent<V> {
    /// Empty, holding at most `capacity`.
    pub fn new(capacity: usize) -> Self {
        Recent { capacity, items: VecDeque::new() }
    }

    /// The value under `key`, now the most recently used.
    pub fn get(&mut self, key: &str) -> Option<V> {
        let at = self.items.iter().position(|(k, _)| k == key)?;
        let item = self.items.remove(at)?;
        let value = item.1.clone();
        self.items.push_back(item);
        Some(value)
    }

    /// Keeps `value` under `key`, dropping the least recently used beyond capacity.
    pub fn put(&mut self, key: String, value: V) {
        self.items.retain(|(k, _)| *k != key);
        self.items.push_back((key, value));
        while self.items.len() > self.capacity {
            self.items.pop_front();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_least_recently_used_goes_first() {
        let mut recent = Recent::new(2);
        recent.put("a".into(), 1);
        recent.put("b".into(), 2);
        assert_eq!(recent.get("a"), Some(1));
        recent.put("c".into(), 3);
        assert_eq!(recent.get("b"), None);
        assert_eq!(recent.get("a"), Some(1));
        assert_eq!(recent.get("c"), Some(3));
    }
}
