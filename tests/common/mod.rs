//! Helpers shared by the native and the browser integration tests.
#![allow(dead_code)]

pub mod golden;
