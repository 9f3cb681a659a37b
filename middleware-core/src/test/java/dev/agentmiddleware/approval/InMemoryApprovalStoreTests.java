package dev.agentmiddleware.approval;

import java.time.Duration;
import java.time.Instant;

import dev.agentmiddleware.approval.ApprovalStore.DeniedCall;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class InMemoryApprovalStoreTests {

	private static final Instant T0 = Instant.parse("2026-11-24T07:00:00Z");

	private static final Duration TTL = Duration.ofHours(1);

	@Test
	void expiredGrantsAreDroppedAsCallsLookThemUp() {
		InMemoryApprovalStore store = new InMemoryApprovalStore();
		for (int i = 0; i < 1000; i++) {
			store.grant(grant("session-" + i, T0));
		}
		assertThat(store.findGrant("session-7", "delete_file", "hash", T0.plusSeconds(60))).isPresent();
		assertThat(store.rememberedSize()).isEqualTo(1000);
		assertThat(store.findGrant("session-7", "delete_file", "hash", T0.plus(TTL))).isEmpty();
		assertThat(store.rememberedSize()).isZero();
	}

	@Test
	void aLookupDropsOnlyTheExpiredGrantsInFrontOfTheFirstLiveOne() {
		InMemoryApprovalStore store = new InMemoryApprovalStore();
		store.grant(grant("old", T0));
		store.grant(grant("new", T0.plus(TTL)));
		assertThat(store.findGrant("new", "delete_file", "hash", T0.plus(TTL).plusSeconds(1))).isPresent();
		assertThat(store.rememberedSize()).isOne();
	}

	@Test
	void denialsOlderThanTheRepeatWindowAreDroppedAsCallsLookThemUp() {
		InMemoryApprovalStore store = new InMemoryApprovalStore();
		for (int i = 0; i < 1000; i++) {
			store.recordDenial(new DeniedCall("session-" + i, "delete_file", "hash", "alice", "no", T0));
		}
		assertThat(store.findDenial("session-3", "delete_file", "hash", T0.minusSeconds(300))).isPresent();
		assertThat(store.findDenial("session-3", "delete_file", "hash", T0.plusSeconds(1))).isEmpty();
		assertThat(store.rememberedSize()).isZero();
	}

	@Test
	void beyondMaxRememberedTheOldestGrantsAndDenialsAreForgotten() {
		InMemoryApprovalStore store = new InMemoryApprovalStore(10, 2);
		store.grant(grant("a", T0));
		store.grant(grant("b", T0));
		store.grant(grant("c", T0));
		store.recordDenial(new DeniedCall("a", "delete_file", "hash", "alice", null, T0));
		store.recordDenial(new DeniedCall("b", "delete_file", "hash", "alice", null, T0));
		store.recordDenial(new DeniedCall("c", "delete_file", "hash", "alice", null, T0));
		assertThat(store.rememberedSize()).isEqualTo(4);
		assertThat(store.findGrant("a", "delete_file", "hash", T0)).isEmpty();
		assertThat(store.findGrant("c", "delete_file", "hash", T0)).isPresent();
		assertThat(store.findDenial("a", "delete_file", "hash", T0)).isEmpty();
		assertThat(store.findDenial("c", "delete_file", "hash", T0)).isPresent();
	}

	@Test
	void aGrantStoredAgainIsTheNewestAndSurvivesTheCap() {
		InMemoryApprovalStore store = new InMemoryApprovalStore(10, 2);
		store.grant(grant("a", T0));
		store.grant(grant("b", T0));
		store.grant(grant("a", T0.plusSeconds(5)));
		store.grant(grant("c", T0.plusSeconds(5)));
		assertThat(store.findGrant("a", "delete_file", "hash", T0)).isPresent();
		assertThat(store.findGrant("b", "delete_file", "hash", T0)).isEmpty();
	}

	@Test
	void maxRememberedMustBePositive() {
		assertThatIllegalArgumentException().isThrownBy(() -> new InMemoryApprovalStore(10, 0))
			.withMessageContaining("maxRemembered");
	}

	private static SessionGrant grant(String session, Instant grantedAt) {
		return new SessionGrant(session, "delete_file", "hash", "alice", grantedAt.plus(TTL));
	}

}
