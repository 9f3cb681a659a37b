package dev.agentmiddleware.autoconfigure.mcp;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.web.servlet.function.ServerResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The response of a request stream that holds its priming event back: what the held flush
 * wrote goes out with the next flush, in one write, or alone when its connection is
 * flushed; other flushes pass.
 */
class PrimingHoldingResponseTests {

	private final FlushCountingResponse servletResponse = new FlushCountingResponse();

	@Test
	void theHeldPrimingEventGoesOutWithTheNextEventInOneWrite() throws Exception {
		write((sse, connection) -> {
			connection.holdNextFlush();
			sse.id("s-0").data("");
			assertThat(connection.isHolding()).isTrue();
			assertThat(this.servletResponse.flushes).as("held").isZero();
			sse.id("s-1").data("answer");
			assertThat(connection.isHolding()).isFalse();
		});
		assertThat(this.servletResponse.flushes).isOne();
		assertThat(this.servletResponse.getContentAsString()).isEqualTo("id:s-0\ndata:\n\nid:s-1\ndata:answer\n\n");
	}

	@Test
	void aHeldPrimingEventGoesOutAloneWhenItsConnectionIsFlushed() throws Exception {
		write((sse, connection) -> {
			connection.holdNextFlush();
			sse.id("s-0").data("");
			connection.flushBuffer();
			assertThat(connection.isHolding()).isFalse();
		});
		assertThat(this.servletResponse.flushes).isOne();
		assertThat(this.servletResponse.getContentAsString()).isEqualTo("id:s-0\ndata:\n\n");
	}

	@Test
	void onlyTheNextFlushIsHeld() throws Exception {
		write((sse, connection) -> {
			sse.id("s-0").data("");
			connection.holdNextFlush();
			sse.id("s-1").data("one");
			sse.id("s-2").data("two");
			sse.id("s-3").data("three");
		});
		assertThat(this.servletResponse.flushes).as("s-0, then s-1 with s-2, then s-3").isEqualTo(3);
	}

	@Test
	void theResponseIsAServerSentEventsResponse() {
		ServerResponse response = PrimingHoldingResponse.sse((sse, connection) -> {
		});
		assertThat(response.statusCode().value()).isEqualTo(200);
		assertThat(response.headers().getContentType()).hasToString("text/event-stream");
	}

	private void write(Writer writer) throws Exception {
		MockHttpServletRequest request = new MockHttpServletRequest("POST", "/mcp");
		request.setAsyncSupported(true);
		AtomicReference<AssertionError> failed = new AtomicReference<>();
		ServerResponse response = PrimingHoldingResponse.sse((sse, connection) -> {
			try {
				writer.write(sse, connection);
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
			catch (AssertionError ex) {
				failed.set(ex);
			}
		});
		response.writeTo(request, this.servletResponse, new ServerResponse.Context() {
			@Override
			public List<HttpMessageConverter<?>> messageConverters() {
				return List.of();
			}
		});
		if (failed.get() != null) {
			throw failed.get();
		}
	}

	@FunctionalInterface
	interface Writer {

		void write(ServerResponse.SseBuilder sse, PrimingHoldingResponse.Connection connection) throws IOException;

	}

	// The container's response, counting the flushes that reach it
	static final class FlushCountingResponse extends MockHttpServletResponse {

		int flushes;

		@Override
		public void flushBuffer() {
			this.flushes++;
			super.flushBuffer();
		}

	}

}
