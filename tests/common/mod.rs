//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod a2a;
pub mod agents;
pub mod golden;
pub mod http;
