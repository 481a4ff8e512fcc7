/* Drives the C output of behave.cll: stub actuator commands that print
 * their name; the variables computed by init; then six cycles with input
 * events raised before some of them, printing the commands and the state. */
#include <stdio.h>

#include "behave.h"
#include "behave_io.h"

void behave_cmd_order_ok(void) { printf(" OrderOk"); }
void behave_cmd_flag_seen(void) { printf(" FlagSeen"); }
void behave_cmd_timer_fired(void) { printf(" TimerFired"); }
void behave_cmd_quick_fired(void) { printf(" QuickFired"); }
void behave_cmd_never_fired(void) { printf(" NeverFired"); }
void behave_cmd_event_seen(void) { printf(" EventSeen"); }
void behave_cmd_nudge_seen(void) { printf(" NudgeSeen"); }
void behave_cmd_not_first(void) { printf(" NotFirst"); }

int main(void)
{
    behave_ctx_t ctx;
    int i;

    /* Reset must clear an event raised before power-on. */
    behave_raise_poke(&ctx);
    printf("init:");
    behave_init(&ctx);
    printf(" -> %s\n", behave_state_name(ctx.state));
    printf("wrap_add=%ld\n", (long)ctx.v_wrap_add);
    printf("wrap_sub=%ld\n", (long)ctx.v_wrap_sub);
    printf("wrap_mul=%ld\n", (long)ctx.v_wrap_mul);
    printf("wrap_neg=%ld\n", (long)ctx.v_wrap_neg);
    printf("div_trunc=%ld\n", (long)ctx.v_div_trunc);
    printf("div_neg=%ld\n", (long)ctx.v_div_neg);
    printf("div_zero=%ld\n", (long)ctx.v_div_zero);
    printf("div_min_by_minus_one=%ld\n", (long)ctx.v_div_min_by_minus_one);
    printf("mod_pos=%ld\n", (long)ctx.v_mod_pos);
    printf("mod_neg_left=%ld\n", (long)ctx.v_mod_neg_left);
    printf("mod_neg_right=%ld\n", (long)ctx.v_mod_neg_right);
    printf("mod_zero=%ld\n", (long)ctx.v_mod_zero);
    printf("mod_min_by_minus_one=%ld\n", (long)ctx.v_mod_min_by_minus_one);
    printf("real_div_zero=%.2f\n", ctx.v_real_div_zero);
    printf("real_div_int_zero=%.2f\n", ctx.v_real_div_int_zero);
    printf("promoted=%.2f\n", ctx.v_promoted);
    printf("mixed=%.2f\n", ctx.v_mixed);
    printf("lvl=%s plain=%s\n", behave_level_name(ctx.v_lvl), behave_level_name(ctx.v_plain));
    for (i = 1; i <= 6; i++) {
        if (i == 2) {
            behave_raise_poke(&ctx);
        }
        if (i == 3) {
            behave_raise_nudge(&ctx);
        }
        if (i == 5) {
            behave_raise_poke(&ctx);
            behave_raise_poke(&ctx);
        }
        printf("cycle %d:", i);
        behave_cycle(&ctx);
        printf(" -> %s\n", behave_state_name(ctx.state));
    }
    printf("cycles=%ld events=%ld\n", (long)ctx.v_cycles, (long)ctx.v_events);
    return 0;
}
