//! Reassembling artifacts from the chunks a stream delivers.

use indexmap::map::raw_entry_v1::{RawEntryApiV1, RawEntryMut};
use indexmap::IndexMap;

use super::types::{Artifact, Part, PartContent, TaskArtifactUpdateEvent};

/// Folds artifact updates, per artifact id, into whole artifacts: `append` continues the artifact
/// (adjacent text is merged), otherwise the chunk replaces it; `lastChunk` marks it complete.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ArtifactAssembler {
    /// By id, in order of first appearance, with whether the last chunk arrived.
    artifacts: IndexMap<String, (Artifact, bool)>,
}

impl ArtifactAssembler {
    /// An empty assembler.
    pub fn new() -> Self {
        Self::default()
    }

    /// Folds in one update; returns the artifact as it now stands.
    pub fn apply(&mut self, update: &TaskArtifactUpdateEvent) -> &Artifact {
        let chunk = &update.artifact;
        // Looked up by the borrowed id: a stream's chunks mostly continue an artifact already seen.
        let (artifact, complete) = match self.artifacts.raw_entry_mut_v1().from_key(&chunk.artifact_id) {
            RawEntryMut::Occupied(entry) => entry.into_mut(),
            RawEntryMut::Vacant(entry) => {
                let empty = Artifact { parts: Vec::new(), ..chunk.clone() };
                entry.insert(chunk.artifact_id.clone(), (empty, false)).1
            }
        };
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
        append_parts(&mut artifact.parts, &chunk.parts);
        *complete = update.last_chunk;
        artifact
    }

    /// The artifact with id `artifact_id`, as assembled so far.
    pub fn get(&self, artifact_id: &str) -> Option<&Artifact> {
        self.artifacts.get(artifact_id).map(|(a, _)| a)
    }

    /// Whether the artifact's last chunk arrived.
    pub fn is_complete(&self, artifact_id: &str) -> bool {
        self.artifacts.get(artifact_id).is_some_and(|(_, done)| *done)
    }

    /// Every artifact, in order of first appearance.
    pub fn artifacts(&self) -> impl Iterator<Item = &Artifact> {
        self.artifacts.values().map(|(a, _)| a)
    }

    /// The text of every artifact, in order.
    pub fn text(&self) -> String {
        self.artifacts().flat_map(|a| a.parts.iter().filter_map(Part::as_text)).collect()
    }
}

/// Appends `parts` to `into`, merging a text part into a preceding text part when neither carries
/// anything but text: chunked text is one text.
pub fn append_parts(into: &mut Vec<Part>, parts: &[Part]) {
    for part in parts {
        if let (Some(last), Some(more)) = (into.last_mut(), part.as_text()) {
            if plain(last) && plain(part) {
                if let PartContent::Text(text) = &mut last.content {
                    text.push_str(more);
                    continue;
                }
            }
        }
        into.push(part.clone());
    }
}

fn plain(part: &Part) -> bool {
    matches!(part.content, PartContent::Text(_))
        && part.media_type.as_deref().is_none_or(|t| t == "text/plain")
        && part.filename.is_none()
        && part.metadata.is_none()
}
