package dev.agentmiddleware.results;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds payment card numbers ({@value #KIND}): 12 to 19 digits, written together or in
 * groups separated by single spaces or dashes ({@code 4111 1111 1111 1111},
 * {@code 4111-1111-1111-1111}, {@code 4111111111111111}), whose check digit is right (the
 * Luhn algorithm) and whose length fits the issuer the first digits name (Visa 13, 16 or
 * 19 digits, Mastercard 16, American Express 15, Diners Club, JCB, Discover, UnionPay,
 * Maestro, Mir, RuPay). So a 16-digit order number whose check digit fails, or whose
 * first digits name no card issuer, is left alone, and digits inside a longer number are
 * never taken for a card.
 *
 * <p>
 * The mask keeps the last four digits, as a receipt does ({@code [CARD ending 1111]}), so
 * that a model can still tell the user which card it is. Thread-safe. <pre>{@code
 * PaymentCardDetector cards = new PaymentCardDetector();
 * cards.find("paid with 4111 1111 1111 1111");  // [Match[start=10, end=29]]
 * cards.find("order 4111 1111 1111 1112");      // [] (the check digit fails)
 * cards.mask("4111 1111 1111 1111");            // "[CARD ending 1111]"
 * }</pre>
 */
public final class PaymentCardDetector implements PersonalDataDetector {

	/** The kind of this detector, {@code card}. */
	public static final String KIND = "card";

	private static final int SHORTEST = 12;

	private static final int LONGEST = 19;

	// A run of digit groups separated by single spaces or dashes, not inside a longer
	// number.
	private static final Pattern RUN = Pattern.compile("(?<![0-9])[0-9]+(?:[ -][0-9]+)*");

	/**
	 * The issuer ranges of the first digits, and the card lengths each issues: {first
	 * prefix, last prefix (with as many digits), lengths...}.
	 */
	private static final int[][] ISSUERS = {
			// Visa
			{ 4, 4, 13, 16, 19 },
			// Mastercard
			{ 51, 55, 16 }, { 2221, 2720, 16 },
			// American Express
			{ 34, 34, 15 }, { 37, 37, 15 },
			// Diners Club
			{ 300, 305, 14, 15, 16, 17, 18, 19 }, { 3095, 3095, 14, 15, 16, 17, 18, 19 },
			{ 36, 36, 14, 15, 16, 17, 18, 19 }, { 38, 39, 14, 15, 16, 17, 18, 19 },
			// JCB
			{ 3528, 3589, 16, 17, 18, 19 },
			// Mir
			{ 2200, 2204, 16, 17, 18, 19 },
			// Maestro, Discover, UnionPay, RuPay and other issuers starting with 50 or 56
			// to 69
			{ 50, 50, 12, 13, 14, 15, 16, 17, 18, 19 }, { 56, 69, 12, 13, 14, 15, 16, 17, 18, 19 },
			// RuPay
			{ 81, 82, 16 } };

	@Override
	public String kind() {
		return KIND;
	}

	@Override
	public List<Match> find(String text) {
		List<Match> matches = null;
		Matcher run = RUN.matcher(text);
		while (run.find()) {
			if (run.end() - run.start() < SHORTEST) {
				continue;
			}
			List<int[]> groups = groups(text, run.start(), run.end());
			// From each group, the longest run of whole groups that is a card number
			int first = 0;
			while (first < groups.size()) {
				int last = longestCard(text, groups, first);
				if (last < 0) {
					first++;
					continue;
				}
				if (matches == null) {
					matches = new ArrayList<>(2);
				}
				matches.add(new Match(groups.get(first)[0], groups.get(last)[1]));
				first = last + 1;
			}
		}
		return (matches != null) ? matches : List.of();
	}

	/**
	 * Keeps the last four digits: {@code [CARD ending 1111]}.
	 */
	@Override
	public String mask(String value) {
		String digits = digits(value, 0, value.length());
		return "[CARD ending " + digits.substring(Math.max(0, digits.length() - 4)) + "]";
	}

	private static List<int[]> groups(String text, int start, int end) {
		List<int[]> groups = new ArrayList<>();
		int groupStart = start;
		for (int i = start; i <= end; i++) {
			if (i == end || !isDigit(text.charAt(i))) {
				groups.add(new int[] { groupStart, i });
				groupStart = i + 1;
			}
		}
		return groups;
	}

	private static int longestCard(String text, List<int[]> groups, int first) {
		int found = -1;
		int length = 0;
		for (int last = first; last < groups.size(); last++) {
			length += groups.get(last)[1] - groups.get(last)[0];
			if (length > LONGEST) {
				break;
			}
			if (length >= SHORTEST) {
				String digits = digits(text, groups.get(first)[0], groups.get(last)[1]);
				if (issued(digits) && luhn(digits)) {
					found = last;
				}
			}
		}
		return found;
	}

	private static boolean issued(String digits) {
		for (int[] issuer : ISSUERS) {
			int prefixLength = String.valueOf(issuer[0]).length();
			int prefix = Integer.parseInt(digits.substring(0, prefixLength));
			if (prefix >= issuer[0] && prefix <= issuer[1]) {
				for (int i = 2; i < issuer.length; i++) {
					if (issuer[i] == digits.length()) {
						return true;
					}
				}
			}
		}
		return false;
	}

	private static boolean luhn(String digits) {
		int sum = 0;
		boolean doubled = false;
		for (int i = digits.length() - 1; i >= 0; i--) {
			int digit = digits.charAt(i) - '0';
			if (doubled) {
				digit *= 2;
				if (digit > 9) {
					digit -= 9;
				}
			}
			sum += digit;
			doubled = !doubled;
		}
		return sum % 10 == 0;
	}

	private static String digits(String text, int start, int end) {
		StringBuilder digits = new StringBuilder(LONGEST);
		for (int i = start; i < end; i++) {
			char c = text.charAt(i);
			if (isDigit(c)) {
				digits.append(c);
			}
		}
		return digits.toString();
	}

	private static boolean isDigit(char c) {
		return c >= '0' && c <= '9';
	}

}
