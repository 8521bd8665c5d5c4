//! A run's events: from `POST /run_sse` as they arrive, or from `POST /run` at its end; decoded
//! (for Rust callers), or as the server's JSON text for a caller that parses it itself (JS).

use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use adk_core::http::{HttpResponse, SseStream};
use adk_core::json::{JsonError, Reader};
use adk_core::{AdkError, ErrorCode, Event};
use futures_core::Stream;
use futures_util::{FutureExt, StreamExt};

use crate::call::{skip_object, Pending};
use crate::errors::{self, decode};

/// What a run hands out for the server's events.
pub trait RunItem: Sized + Unpin + 'static {
    /// A `/run_sse` frame's event (the server's error frames are told apart before).
    fn frame(data: String) -> Result<Self, AdkError>;
    /// The items of `op`'s answer: the `/run` array of events.
    fn answer(op: &str, text: String) -> Result<VecDeque<Self>, AdkError>;
}

impl RunItem for Event {
    fn frame(data: String) -> Result<Self, AdkError> {
        Event::from_json(&data).map_err(|e| errors::unexpected("runSse", e))
    }

    fn answer(op: &str, text: String) -> Result<VecDeque<Self>, AdkError> {
        decode::<Vec<Event>>(op, &text).map(VecDeque::from)
    }
}

/// The server's events as it wrote them, checked only to be JSON objects, so that their texts
/// joined with commas in brackets are a JSON array: a frame's event, or the whole `/run` answer
/// (an array) as one item. For a caller that parses JSON itself (JS): nothing is decoded twice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventsJson(pub String);

/// `text` if `check` reads it all; else the error of an answer that is not an ADK server's.
fn checked(op: &str, text: String, check: fn(&mut Reader<'_>) -> Result<(), JsonError>) -> Result<String, AdkError> {
    let mut r = Reader::text(&text);
    match check(&mut r).and_then(|()| r.finish()) {
        Ok(()) => Ok(text),
        Err(e) => Err(errors::unexpected(op, e.into_adk("answer"))),
    }
}

/// [`EventsJson`]'s text itself, for a caller that hands it on as it is (the JS `Run`).
impl RunItem for String {
    fn frame(data: String) -> Result<Self, AdkError> {
        checked("runSse", data, skip_object)
    }

    fn answer(op: &str, text: String) -> Result<VecDeque<Self>, AdkError> {
        Ok(VecDeque::from([checked(op, text, |r| r.array(skip_object))?]))
    }
}

impl RunItem for EventsJson {
    fn frame(data: String) -> Result<Self, AdkError> {
        String::frame(data).map(EventsJson)
    }

    fn answer(op: &str, text: String) -> Result<VecDeque<Self>, AdkError> {
        Ok(String::answer(op, text)?.into_iter().map(EventsJson).collect())
    }
}

/// What the server's answer gives to read.
enum Body<T> {
    Frames(SseStream),
    Events(VecDeque<T>),
}

enum State<T> {
    Opening(Pin<Box<dyn Future<Output = Result<Body<T>, AdkError>>>>),
    Reading(Body<T>),
    Done,
}

/// A run's events. It ends after the first error: an error status before any event, the server's
/// own error frame (`INTERNAL`: the run failed there), an answer that is not events (`UNKNOWN`), or
/// a cut connection (`UNAVAILABLE`); the events before it were already handed out. Dropping it
/// closes the connection: the server stops a `/run_sse` run then (google-adk 2.x a `/run` one too).
pub struct RunEvents<T = Event> {
    state: State<T>,
}

impl<T: RunItem> RunEvents<T> {
    /// The events of the stream of frames `sent` will give to `op` at `url`.
    pub(crate) fn open(op: &'static str, url: String, sent: Pending<HttpResponse>) -> Self {
        let opening = async move {
            let response = sent.await?;
            if response.is_event_stream() {
                return Ok(Body::Frames(response.events()));
            }
            let content_type = response.header("content-type").unwrap_or("none").to_string();
            Err(AdkError {
                http_status: Some(response.status),
                ..AdkError::new(
                    ErrorCode::Unimplemented,
                    format!(
                        "{op}: expected an event stream from {url}, the server answered with content type `{content_type}`"
                    ),
                )
            })
        };
        RunEvents { state: State::Opening(Box::pin(opening)) }
    }

    /// The events of the one array `answer` will give to `op` (never none: only an artifact's
    /// `404` is).
    pub(crate) fn answer(op: &'static str, answer: Pending<Option<String>>) -> Self {
        let opening = async move { Ok(Body::Events(T::answer(op, answer.await?.unwrap_or_default())?)) };
        RunEvents { state: State::Opening(Box::pin(opening)) }
    }

    /// A run that could not start: `error` is its only item.
    pub(crate) fn failed(error: AdkError) -> Self {
        RunEvents { state: State::Opening(Box::pin(std::future::ready(Err(error)))) }
    }
}

/// One frame's event, or why there is none.
fn event_of<T: RunItem>(data: String) -> Result<T, AdkError> {
    if errors::is_error_frame(&data) {
        return Err(errors::from_error_frame(&data));
    }
    T::frame(data)
}

impl<T: RunItem> Stream for RunEvents<T> {
    type Item = Result<T, AdkError>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        loop {
            let item = match &mut this.state {
                State::Done => return Poll::Ready(None),
                State::Opening(opening) => match opening.poll_unpin(cx) {
                    Poll::Pending => return Poll::Pending,
                    Poll::Ready(Ok(body)) => {
                        this.state = State::Reading(body);
                        continue;
                    }
                    Poll::Ready(Err(e)) => Err(e),
                },
                State::Reading(Body::Events(events)) => Ok(events.pop_front()),
                State::Reading(Body::Frames(frames)) => match frames.poll_next_unpin(cx) {
                    Poll::Pending => return Poll::Pending,
                    Poll::Ready(None) => Ok(None),
                    Poll::Ready(Some(Ok(frame))) if frame.data.is_empty() => continue,
                    Poll::Ready(Some(Ok(frame))) => event_of(frame.data).map(Some),
                    Poll::Ready(Some(Err(e))) if e.code == ErrorCode::Unavailable => Err(AdkError {
                        message: format!("runSse: the stream from the ADK server was cut: {}", e.message),
                        ..e
                    }),
                    Poll::Ready(Some(Err(e))) => Err(e),
                },
            };
            return Poll::Ready(match item {
                Ok(Some(event)) => Some(Ok(event)),
                Ok(None) => {
                    this.state = State::Done;
                    None
                }
                Err(e) => {
                    this.state = State::Done;
                    Some(Err(e))
                }
            });
        }
    }
}
