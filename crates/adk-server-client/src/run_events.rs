//! A run's events: from `POST /run_sse` as they arrive, or from `POST /run` at its end.

use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use adk_core::http::{HttpResponse, SseEvents};
use adk_core::{AdkError, ErrorCode, Event};
use futures_core::Stream;
use futures_util::{FutureExt, StreamExt};

use crate::call::Pending;
use crate::errors::{self, decode};

/// What the server's answer gives to read.
enum Body {
    Frames(SseEvents),
    Events(VecDeque<Event>),
}

enum State {
    Opening(Pin<Box<dyn Future<Output = Result<Body, AdkError>>>>),
    Reading(Body),
    Done,
}

/// A run's events. It ends after the first error: an error status before any event, the server's
/// own error frame (`INTERNAL`: the run failed there), an answer that is not events (`UNKNOWN`), or
/// a cut connection (`UNAVAILABLE`); the events before it were already handed out. Dropping it
/// closes the connection: the server stops a `/run_sse` run then (google-adk 2.x a `/run` one too).
pub struct RunEvents {
    state: State,
}

impl RunEvents {
    /// The events of the answer `sent` will give to `op` at `url`: a stream of frames
    /// (`streams`), or one array at the end.
    pub(crate) fn open(op: &'static str, streams: bool, url: String, sent: Pending<HttpResponse>) -> Self {
        let opening = async move {
            let response = sent.await?;
            if !streams {
                let events: Vec<Event> = decode(op, &response.text().await?)?;
                return Ok(Body::Events(events.into()));
            }
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

    /// A run that could not start: `error` is its only item.
    pub(crate) fn failed(error: AdkError) -> Self {
        RunEvents { state: State::Opening(Box::pin(std::future::ready(Err(error)))) }
    }
}

/// One frame's event, or why there is none.
fn event_of(data: &str) -> Result<Event, AdkError> {
    if errors::is_error_frame(data) {
        return Err(errors::from_error_frame(data));
    }
    Event::from_json(data).map_err(|e| errors::unexpected("runSse", e))
}

impl Stream for RunEvents {
    type Item = Result<Event, AdkError>;

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
                    Poll::Ready(Some(Ok(frame))) => event_of(&frame.data).map(Some),
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
