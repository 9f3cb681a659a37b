/**
 * Plumbing that several packages of the core share, such as the short duration text of
 * messages ({@code DurationText}) and the per-tool policy resolution of the built-ins
 * ({@code ToolPolicies}).
 * <p>
 * <strong>Not API.</strong> These types are public only so that the other packages and
 * modules of Agent Tool Middleware can use them (OkHttp's {@code okhttp3.internal} rule):
 * they may change or go in any release, and no public type outside an {@code internal}
 * package exposes them (an ArchUnit rule checks it). Do not name them in application
 * code.
 */
@NullMarked
package dev.agentmiddleware.internal;

import org.jspecify.annotations.NullMarked;
