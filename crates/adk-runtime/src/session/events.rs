//! A session's events: recorded history shared between copies, so that handing a session to a
//! run (or to a caller) costs what it adds, not what it has accumulated.

use std::cell::OnceCell;
use std::fmt;
use std::ops::Index;
use std::rc::Rc;

use adk_core::json::{FromJson, JsonError, Reader, ToJson, Writer};

use crate::Event;

/// From this size of JSON text on, a recorded event is kept decoded rather than as its text.
const KEEP_DECODED: usize = 1 << 20;

/// How many events are frozen together into one shared run.
const RUN: usize = 64;

/// An event's JSON text, as it is recorded: written in room for most events' (a small text event
/// takes about 330 bytes): grown from empty, it cost seven reallocations, more than the writing.
pub fn event_text(event: &Event) -> String {
    let mut writer = Writer::with_capacity(512);
    event.write_json(&mut writer);
    writer.into_string()
}

/// One recorded event: decoded, or the JSON text a service stored it as, decoded when first read.
/// Kept as text, an event costs its store one encoding (which also measures it and is what the run
/// hands JS) and a tenth of the memory; most stored events are never read again.
pub struct Recorded {
    text: Option<Box<str>>,
    event: OnceCell<Box<Event>>,
}

impl Recorded {
    /// A decoded event.
    pub fn new(event: Event) -> Self {
        Recorded { text: None, event: OnceCell::from(Box::new(event)) }
    }

    /// An event kept as `text`, the encoding of an event by [`adk_core::json`].
    pub fn from_text(text: String) -> Self {
        Recorded { text: Some(text.into_boxed_str()), event: OnceCell::new() }
    }

    /// `event`, whose JSON text is `text`: kept as that text, or, from 1 MiB of text on,
    /// decoded, as the event the caller gets back is. Kept as text, a big event would be one more
    /// copy in memory while the run hands JS a copy of that text (and wasm memory never shrinks).
    /// The text is freed only after the copy is made, so that the copy takes the room the decoded
    /// input left and the JSON for JS then takes the text's.
    pub fn of(event: &Event, text: String) -> Self {
        match text.len() < KEEP_DECODED {
            true => Recorded::from_text(text),
            false => Recorded::new(event.clone()),
        }
    }

    /// The event, decoded on first use.
    pub fn event(&self) -> &Event {
        self.event.get_or_init(|| {
            let text = self.text.as_deref().unwrap_or_default();
            // The text is this SDK's own encoding of an event that was decoded or built before, so
            // it reads back (without the input size budget: limits lowered since do not apply to
            // it); should it not (a non-finite timestamp), the event says so rather than the read
            // panicking.
            Box::new(adk_core::json::read_own_text(text).unwrap_or_else(|e| {
                let mut event = Event::new("");
                event.error_code = Some("INTERNAL".into());
                event.error_message = Some(e.into_adk("event").message);
                event
            }))
        })
    }

    /// The JSON text it was stored as, if it was stored as text.
    pub fn text(&self) -> Option<&str> {
        self.text.as_deref()
    }
}

/// A session's events, oldest first. Cloning shares the events already recorded (one pointer per
/// 64 events) instead of copying them; what a copy appends afterwards is its own. An event can
/// also be shared between sessions (the caller's copy and the stored one) with [`Events::push_shared`].
#[derive(Clone, Default)]
pub struct Events {
    /// Full runs of [`RUN`] events, immutable and shared by every copy.
    runs: Vec<Rc<Vec<Rc<Recorded>>>>,
    /// The newest events, not frozen yet.
    tail: Vec<Rc<Recorded>>,
}

impl Events {
    /// No events.
    pub fn new() -> Self {
        Self::default()
    }

    /// How many events there are.
    pub fn len(&self) -> usize {
        self.runs.len() * RUN + self.tail.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.runs.is_empty() && self.tail.is_empty()
    }

    /// Appends `event`.
    pub fn push(&mut self, event: Event) {
        self.push_shared(Rc::new(Recorded::new(event)));
    }

    /// Appends an event another session may hold too.
    pub fn push_shared(&mut self, event: Rc<Recorded>) {
        if self.tail.capacity() == 0 {
            self.tail.reserve_exact(RUN);
        }
        self.tail.push(event);
        if self.tail.len() == RUN {
            // Frozen where it stands: the run's buffer is moved, not copied.
            self.runs.push(Rc::new(std::mem::take(&mut self.tail)));
        }
    }

    /// Removes every event (from this copy only).
    pub fn clear(&mut self) {
        self.runs.clear();
        self.tail.clear();
    }

    /// The event at `index`.
    pub fn get(&self, index: usize) -> Option<&Event> {
        self.recorded_at(index).map(|event| event.event())
    }

    /// The recorded event at `index`: every run holds exactly `RUN` events (a run is only ever
    /// made of a full tail, in `push_shared` and `extend_shared`), so its run is `index / RUN`.
    fn recorded_at(&self, index: usize) -> Option<&Rc<Recorded>> {
        match self.runs.get(index / RUN) {
            Some(run) => run.get(index % RUN),
            None => self.tail.get(index - self.runs.len() * RUN),
        }
    }

    /// The newest event.
    pub fn last(&self) -> Option<&Event> {
        self.last_recorded().map(|event| event.event())
    }

    /// The newest event's JSON text, if it is kept as text.
    pub fn last_text(&self) -> Option<&str> {
        self.last_recorded()?.text()
    }

    fn last_recorded(&self) -> Option<&Rc<Recorded>> {
        self.tail.last().or_else(|| self.runs.last().and_then(|run| run.last()))
    }

    /// The events, oldest first.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &Event> + '_ {
        self.recorded().map(|event| event.event())
    }

    /// The recorded events, oldest first, as they are kept.
    fn recorded(&self) -> impl DoubleEndedIterator<Item = &Rc<Recorded>> + '_ {
        // By index (every run holds `RUN` events): a `flat_map` over the runs compiled its front
        // and back state into each of the many callers.
        (0..self.len()).filter_map(|index| self.recorded_at(index))
    }

    /// The events from `start` on, sharing the whole runs among them.
    pub fn from_index(&self, start: usize) -> Events {
        if start == 0 {
            return self.clone();
        }
        let first_run = start / RUN;
        let partial = self.runs.get(first_run).map(|run| run.get(start % RUN..).unwrap_or_default());
        match partial {
            // Starting inside a run: the later runs are shared whole when they fall on a boundary.
            Some(rest) => {
                let mut events = Events::new();
                rest.iter().for_each(|event| events.push_shared(event.clone()));
                for run in self.runs.iter().skip(first_run + 1) {
                    events.extend_shared(run);
                }
                self.tail.iter().for_each(|event| events.push_shared(event.clone()));
                events
            }
            None => {
                let mut events = Events::new();
                let rest = self.tail.get(start - self.runs.len() * RUN..).unwrap_or_default();
                rest.iter().for_each(|event| events.push_shared(event.clone()));
                events
            }
        }
    }

    /// Appends a whole shared run, sharing it when this copy is at a run boundary.
    fn extend_shared(&mut self, run: &Rc<Vec<Rc<Recorded>>>) {
        if self.tail.is_empty() && run.len() == RUN {
            self.runs.push(run.clone());
        } else {
            run.iter().for_each(|event| self.push_shared(event.clone()));
        }
    }

    /// The events as a `Vec` (copied).
    pub fn to_vec(&self) -> Vec<Event> {
        let mut events = Vec::with_capacity(self.len());
        for event in self.iter() {
            events.push(event.clone());
        }
        events
    }
}

impl From<Vec<Event>> for Events {
    fn from(events: Vec<Event>) -> Self {
        events.into_iter().collect()
    }
}

impl FromIterator<Event> for Events {
    fn from_iter<I: IntoIterator<Item = Event>>(iter: I) -> Self {
        let mut events = Events::new();
        for event in iter {
            events.push(event);
        }
        events
    }
}

impl<'a> IntoIterator for &'a Events {
    type Item = &'a Event;
    type IntoIter = Box<dyn DoubleEndedIterator<Item = &'a Event> + 'a>;

    fn into_iter(self) -> Self::IntoIter {
        Box::new(self.iter())
    }
}

impl Index<usize> for Events {
    type Output = Event;

    // Indexing out of range is a bug in the caller, as for a `Vec`.
    #[allow(clippy::panic)]
    fn index(&self, index: usize) -> &Event {
        match self.get(index) {
            Some(event) => event,
            None => panic!("event index {index} out of range for {} events", self.len()),
        }
    }
}

impl PartialEq for Events {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl PartialEq<Vec<Event>> for Events {
    fn eq(&self, other: &Vec<Event>) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl fmt::Debug for Events {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl FromJson for Events {
    fn read_json(r: &mut Reader<'_>) -> Result<Self, JsonError> {
        Vec::<Event>::read_json(r).map(Events::from)
    }
}

impl ToJson for Events {
    /// Events kept as text are written as they are, not decoded.
    fn write_json(&self, w: &mut Writer) {
        w.array_of(self.recorded(), |w, recorded| match recorded.text() {
            Some(text) => w.raw(text),
            None => recorded.event().write_json(w),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn events(n: usize) -> Events {
        (0..n).map(|i| Event::new(&format!("a{i}"))).collect()
    }

    #[test]
    fn copies_share_recorded_runs_and_keep_their_own_appends() {
        let mut one = events(130);
        let two = one.clone();
        assert!(Rc::ptr_eq(&one.runs[0], &two.runs[0]), "recorded runs are shared, not copied");
        one.push(Event::new("new"));
        assert_eq!((one.len(), two.len()), (131, 130));
        assert_eq!(one[130].author, "new");
        assert_eq!(two.last().map(|e| e.author.as_str()), Some("a129"));
        assert_eq!(one.iter().map(|e| e.author.clone()).take(3).collect::<Vec<_>>(), ["a0", "a1", "a2"]);
        assert_eq!(one.get(131), None);
    }

    #[test]
    fn suffixes_match_the_plain_vector() {
        let all = events(200);
        let plain = all.to_vec();
        for start in [0, 1, 63, 64, 65, 128, 150, 199, 200, 250] {
            let suffix = all.from_index(start);
            assert_eq!(suffix, plain.get(start..).unwrap_or_default().to_vec(), "from {start}");
        }
        assert_eq!(json_round_trip(&all), all);
    }

    #[test]
    fn an_event_kept_as_text_reads_back_after_the_limits_are_lowered() {
        // 20 000 empty parts: a small text that decodes to far more than the reader's base budget.
        let mut event = Event::new("user");
        event.content = Some(crate::types::Content { parts: Some(vec![Default::default(); 20_000]), role: None });
        let recorded = Recorded::from_text(adk_core::json::to_string(&event));
        let limits = adk_core::limits::limits();
        adk_core::limits::set_limits(adk_core::limits::Limits { max_json_expansion: 1, ..limits });
        let read = recorded.event().clone();
        adk_core::limits::set_limits(limits);
        assert_eq!(read, event, "accepted when stored, so readable whatever the limits are now");
    }

    #[test]
    fn events_kept_as_text_read_as_decoded_and_write_as_kept() {
        let decoded = events(3);
        let mut kept = Events::new();
        for event in decoded.iter() {
            kept.push_shared(Rc::new(Recorded::from_text(adk_core::json::to_string(event))));
        }
        assert_eq!(kept.last_text(), Some(adk_core::json::to_string(&decoded[2]).as_str()));
        assert_eq!(decoded.last_text(), None);
        assert_eq!(kept, decoded);
        assert_eq!(adk_core::json::to_string(&kept), adk_core::json::to_string(&decoded));
        // Text that does not read back as an event (never written by the SDK) still gives an event.
        let odd = Recorded::from_text("{\"author\": 1}".into());
        assert_eq!(odd.event().error_code.as_deref(), Some("INTERNAL"));
    }

    fn json_round_trip(events: &Events) -> Events {
        adk_core::json::from_str("events", &adk_core::json::to_string(events)).unwrap()
    }
}
