//! Names that could escape their scope are refused before anything is stored or read.

use crate::AdkError;
use adk_core::json;

/// File names with this prefix belong to the user, across sessions.
pub const USER_NAMESPACE: &str = "user:";

/// An app, user or session id: not blank, no NUL, no path separators, not `.` or `..`.
pub fn validate_id(value: &str, field: &str) -> Result<(), AdkError> {
    if value.trim().is_empty() {
        return Err(AdkError::invalid(format!("{field} must not be empty.")));
    }
    if value.contains('\0') {
        return Err(AdkError::invalid(format!("{field} must not contain null bytes.")));
    }
    if value.contains(['/', '\\']) || value == "." || value == ".." {
        let value = json::to_string(value);
        return Err(AdkError::invalid(format!("{field} {value} must not contain '/', '\\' or be '.' or '..'.")));
    }
    Ok(())
}

/// A file name: not blank, no NUL, not absolute, no empty, `.` or `..` segments. Inner `/` is allowed
/// (`reports/q1.pdf`); storage is keyed by the name itself, so it cannot reach another scope.
pub fn validate_filename(filename: &str) -> Result<(), AdkError> {
    let name = filename.strip_prefix(USER_NAMESPACE).unwrap_or(filename);
    if name.trim().is_empty() {
        return Err(AdkError::invalid("filename must not be empty."));
    }
    if name.contains('\0') {
        return Err(AdkError::invalid("filename must not contain null bytes."));
    }
    if name.split(['/', '\\']).any(|s| s.is_empty() || s == "." || s == "..") {
        let filename = json::to_string(filename);
        return Err(AdkError::invalid(format!(
            "filename {filename} must not be absolute or contain empty, '.' or '..' segments."
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids() {
        for bad in ["", "  ", "a/b", "a\\b", ".", "..", "a\0"] {
            assert!(validate_id(bad, "user_id").is_err(), "{bad:?}");
        }
        for good in ["u1", "user@example.com", "세션-1", "a..b"] {
            assert!(validate_id(good, "user_id").is_ok(), "{good:?}");
        }
    }

    #[test]
    fn filenames() {
        for bad in ["", "user:", "/etc/passwd", "\\x", "../x", "a/../b", "a//b", "a/", "./a", "user:../x", "x\0"] {
            assert!(validate_filename(bad).is_err(), "{bad:?}");
        }
        for good in ["report.txt", "user:avatar.png", "reports/q1.pdf", "a..b", "노트.md"] {
            assert!(validate_filename(good).is_ok(), "{good:?}");
        }
    }
}
