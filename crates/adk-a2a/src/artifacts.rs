//! Reassembling artifacts from the chunks a stream delivers.

use std::borrow::Cow;

use super::types::{text_part, Artifact, Part, PartContent, TaskArtifactUpdateEvent};

/// Folds artifact updates, per artifact id, into whole artifacts: `append` continues the artifact
/// (adjacent text is merged), otherwise the chunk replaces it; `lastChunk` marks it complete.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ArtifactAssembler {
    /// In order of first appearance, with whether the last chunk arrived. A list, not a map: a
    /// task has a few artifacts, and a search of a few ids is cheaper than a hash map's code.
    artifacts: Vec<(Artifact, bool)>,
}

impl ArtifactAssembler {
    /// An empty assembler.
    pub fn new() -> Self {
        Self::default()
    }

    /// Folds in one update; returns the artifact as it now stands.
    pub fn apply<'a>(&'a mut self, update: &'a TaskArtifactUpdateEvent) -> &'a Artifact {
        let chunk = &update.artifact;
        let at = match self.artifacts.iter().position(|(a, _)| a.artifact_id == chunk.artifact_id) {
            Some(at) => at,
            None => {
                self.artifacts.push((Artifact { parts: Vec::new(), ..chunk.clone() }, false));
                self.artifacts.len() - 1
            }
        };
        // Found or just pushed, so always there; the chunk stands in for it to the type system.
        let Some((artifact, complete)) = self.artifacts.get_mut(at) else { return chunk };
        if update.append {
            // A continuation may name, describe or annotate the artifact late; keep what it says.
            if chunk.name.is_some() {
                artifact.name.clone_from(&chunk.name);
            }
            if chunk.description.is_some() {
                artifact.description.clone_from(&chunk.description);
            }
            if chunk.metadata.is_some() {
                artifact.metadata.clone_from(&chunk.metadata);
            }
        } else {
            *artifact = Artifact { parts: Vec::new(), ..chunk.clone() };
        }
        append_parts(&mut artifact.parts, chunk.parts.clone());
        *complete = update.last_chunk;
        artifact
    }

    /// The artifact with id `artifact_id`, as assembled so far.
    pub fn get(&self, artifact_id: &str) -> Option<&Artifact> {
        self.find(artifact_id).map(|(a, _)| a)
    }

    fn find(&self, artifact_id: &str) -> Option<&(Artifact, bool)> {
        self.artifacts.iter().find(|(a, _)| a.artifact_id == artifact_id)
    }

    /// Whether the artifact's last chunk arrived.
    pub fn is_complete(&self, artifact_id: &str) -> bool {
        self.find(artifact_id).is_some_and(|(_, done)| *done)
    }

    /// Every artifact, in order of first appearance.
    pub fn artifacts(&self) -> impl Iterator<Item = &Artifact> {
        self.artifacts.iter().map(|(a, _)| a)
    }

    /// The text of every artifact, in order.
    pub fn text(&self) -> String {
        let mut text = String::new();
        for (artifact, _) in &self.artifacts {
            for part in &artifact.parts {
                text.push_str(part.as_text().unwrap_or_default());
            }
        }
        text
    }
}

/// Appends `parts` to `into`, merging a text part into a preceding text part when neither carries
/// anything but text: chunked text is one text.
pub fn append_parts(into: &mut Vec<Part>, parts: Vec<Part>) {
    for part in parts {
        if let (true, Some(more), Some(text)) = (plain(&part), part.as_text(), last_plain_text(into)) {
            text.push_str(more);
            continue;
        }
        into.push(part);
    }
}

/// [`append_parts`] of one part of plain `text` and nothing else.
pub(crate) fn append_text(into: &mut Vec<Part>, text: Cow<'_, str>) {
    match last_plain_text(into) {
        Some(have) => have.push_str(&text),
        None => into.push(text_part(text)),
    }
}

/// The text of the last of `parts` if it carries nothing but text.
fn last_plain_text(parts: &mut [Part]) -> Option<&mut String> {
    match parts.last_mut() {
        Some(last) if plain(last) => match &mut last.content {
            PartContent::Text(text) => Some(text),
            _ => None,
        },
        _ => None,
    }
}

fn plain(part: &Part) -> bool {
    matches!(part.content, PartContent::Text(_))
        && part.media_type.as_deref().is_none_or(|t| t == "text/plain")
        && part.filename.is_none()
        && part.metadata.is_none()
}
