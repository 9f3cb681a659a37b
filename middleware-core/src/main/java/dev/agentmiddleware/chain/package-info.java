/**
 * The middleware chain: around-style {@link dev.agentmiddleware.chain.ToolMiddleware},
 * phase-style {@link dev.agentmiddleware.chain.ToolInterceptor} and the per-tool
 * {@link dev.agentmiddleware.chain.ToolPipeline}.
 */
@NullMarked
package dev.agentmiddleware.chain;

import org.jspecify.annotations.NullMarked;
