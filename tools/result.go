package tools

import (
	"fmt"
	"time"
)

// ErrorCode is a stable, model-readable category for an error result.
type ErrorCode string

// Error codes (koopa's set plus the registry's own).
const (
	CodeSecurity     ErrorCode = "SecurityError"
	CodeNotFound     ErrorCode = "NotFound"
	CodePermission   ErrorCode = "PermissionDenied"
	CodeIO           ErrorCode = "IOError"
	CodeExecution    ErrorCode = "ExecutionError"
	CodeTimeout      ErrorCode = "TimeoutError"
	CodeNetwork      ErrorCode = "NetworkError"
	CodeValidation   ErrorCode = "ValidationError"
	CodeRateLimited  ErrorCode = "RateLimited"
	CodePolicyDenied ErrorCode = "PolicyDenied"
)

// ResultError is the structured error of a failed call.
type ResultError struct {
	Code    ErrorCode `json:"code"`
	Message string    `json:"message"`
	// RetryAfterMS is set for RateLimited results.
	RetryAfterMS int64 `json:"retry_after_ms,omitempty"`
}

// Result is what a tool call returns: text for the model, optional text for
// the user, and a structured error when it failed.
type Result struct {
	ForLLM   string        `json:"for_llm"`
	ForUser  string        `json:"for_user,omitempty"`
	IsError  bool          `json:"is_error"`
	Error    *ResultError  `json:"error,omitempty"`
	Duration time.Duration `json:"duration_ns"`
}

// Text returns a successful result shown identically to model and user.
func Text(s string) Result { return Result{ForLLM: s, ForUser: s} }

// TextFor returns a successful result with distinct model and user text.
func TextFor(forLLM, forUser string) Result { return Result{ForLLM: forLLM, ForUser: forUser} }

// Errorf returns an error result the model can act on.
func Errorf(code ErrorCode, format string, args ...any) Result {
	msg := fmt.Sprintf(format, args...)
	return Result{
		ForLLM:  fmt.Sprintf("%s: %s", code, msg),
		ForUser: msg,
		IsError: true,
		Error:   &ResultError{Code: code, Message: msg},
	}
}

// Code returns the error code, or "" for a success.
func (r Result) Code() ErrorCode {
	if r.Error == nil {
		return ""
	}
	return r.Error.Code
}
