/**
 * The tool model: what a tool is ({@link dev.agentmiddleware.tool.ToolDescriptor}), one
 * call of it ({@link dev.agentmiddleware.tool.ToolInvocation}), a rich result of texts,
 * images, audio and resources ({@link dev.agentmiddleware.tool.ToolContents}, of
 * {@link dev.agentmiddleware.tool.ToolContent} parts), the progress a call reports to a
 * caller that asked for it ({@link dev.agentmiddleware.tool.ToolProgress}, sent to its
 * {@link dev.agentmiddleware.tool.ProgressTarget}), the client a tool talks to during its
 * call ({@link dev.agentmiddleware.tool.ToolClient}: log, elicitation, sampling) and the
 * failures the chain reports.
 */
@NullMarked
package dev.agentmiddleware.tool;

import org.jspecify.annotations.NullMarked;
import dev.agentmiddleware.tool.ToolProgress.ProgressTarget;
