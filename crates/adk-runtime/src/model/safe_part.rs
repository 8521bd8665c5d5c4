//! ADK's `as_safe_part_for_llm`: inline data in a form Gemini takes. Used by the `load_artifacts`
//! tool for the artifacts it loads, and by the Gemini adapter for every inline part it sends (as
//! ADK's `Gemini` model does: a page's upload of SVG or DOCX would otherwise be refused with 400).

use crate::types::{Blob, Part};

/// Whether Gemini takes `mime` (without parameters, lower case) as inline data.
fn inline_supported(mime: &str) -> bool {
    if matches!(mime, "image/svg" | "image/svg+xml" | "image/xml") {
        return false;
    }
    ["image/", "audio/", "video/"].iter().any(|p| mime.starts_with(p)) || mime == "application/pdf"
}

/// A MIME type's base, trimmed and lower-cased (ADK's `_normalize_mime_type`), and what follows it
/// from the first `;` on.
pub(crate) fn base_mime(given: &str) -> (String, &str) {
    // Checked slicing (never refused here): a slice that could panic links core's message for it,
    // and the Unicode tables that message needs, into the module.
    let (base, params) = given.split_at_checked(given.find(';').unwrap_or(given.len())).unwrap_or((given, ""));
    (base.trim().to_ascii_lowercase(), params)
}

/// ADK's `as_safe_part_for_llm`: media Gemini takes stay (their MIME type's base lower-cased),
/// text-like data becomes text, anything else a placeholder naming it. (ADK also reads the text
/// of a DOCX file; here a DOCX file gets the placeholder.)
pub(crate) fn safe_part(artifact: Part, name: &str) -> Part {
    let Some(blob) = artifact.inline_data.clone() else { return artifact };
    let given = blob.mime_type.clone().unwrap_or_default();
    let (mime, params) = base_mime(&given);
    if !given.is_empty() && inline_supported(&mime) {
        let inline_data = Some(Blob { mime_type: Some([&mime, params].concat()), ..blob });
        return Part { inline_data, ..artifact };
    }
    let mime = if mime.is_empty() { "application/octet-stream".to_string() } else { mime };
    let Some(data) = blob.data else {
        return Part::from_text(&["[Artifact: ", name, ", type: ", &mime, ". No inline data was provided.]"].concat());
    };
    let lower = name.to_ascii_lowercase();
    let text_like = mime.starts_with("text/")
        || matches!(
            mime.as_str(),
            "application/csv"
                | "application/json"
                | "application/svg+xml"
                | "application/xml"
                | "image/svg"
                | "image/svg+xml"
                | "image/xml"
        )
        || [".csv", ".txt", ".json", ".xml"].iter().any(|s| lower.ends_with(s));
    if text_like {
        return Part::from_text(&adk_core::text::utf8_lossy(&data.0));
    }
    Part::from_text(
        &[
            "[Binary artifact: ",
            name,
            ", type: ",
            &mime,
            ", size: ",
            &kilobytes(data.0.len()),
            " KB. Content cannot be displayed inline.]",
        ]
        .concat(),
    )
}

/// `len / 1024` with one decimal, as Python's `f"{x:.1f}"` rounds it (half to even; the value is
/// exact in binary).
fn kilobytes(len: usize) -> String {
    let tenths = len.saturating_mul(10);
    let (mut whole, rest) = (tenths / 1024, tenths % 1024);
    if rest > 512 || (rest == 512 && whole % 2 == 1) {
        whole += 1;
    }
    format!("{}.{}", whole / 10, whole % 10)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn media_stay_text_becomes_text_the_rest_a_placeholder() {
        // ADK 2.x keeps media with the base of its MIME type lower-cased (1.x sent a placeholder).
        let image = Part {
            inline_data: Some(Blob { mime_type: Some("IMAGE/PNG; q=1".into()), ..Default::default() }),
            ..Default::default()
        };
        let safe = safe_part(image, "x.png");
        assert_eq!(safe.inline_data.and_then(|b| b.mime_type).as_deref(), Some("image/png; q=1"));
        let svg = Part {
            inline_data: Some(Blob {
                mime_type: Some("image/svg+xml".into()),
                data: Some(adk_core::types::Bytes(b"<svg/>".to_vec())),
                ..Default::default()
            }),
            ..Default::default()
        };
        assert_eq!(safe_part(svg, "x.svg").text.as_deref(), Some("<svg/>"));
        for (len, expected) in
            [(0, "0.0"), (1024, "1.0"), (1075, "1.0"), (1076, "1.1"), (51, "0.0"), (52, "0.1"), (1_048_576, "1024.0")]
        {
            assert_eq!(kilobytes(len), expected, "{len}");
        }
    }
}
