// Test doubles and fixtures for code built on @waddle/planner.
export {};
