/* Drives the C output of examples/cll/traffic.cll: stub actuator commands
 * that print their name, then init and six cycles, printing the state after
 * each. */
#include <stdio.h>

#include "traffic_light.h"
#include "traffic_light_io.h"

void traffic_light_cmd_enable_camera(void) { printf(" EnableCamera"); }
void traffic_light_cmd_disable_camera(void) { printf(" DisableCamera"); }
void traffic_light_cmd_speaker_on(void) { printf(" SpeakerOn"); }
void traffic_light_cmd_speaker_off(void) { printf(" SpeakerOff"); }

int main(void)
{
    traffic_light_ctx_t ctx;
    int i;

    printf("init:");
    traffic_light_init(&ctx);
    printf(" -> %s\n", traffic_light_state_name(ctx.state));
    for (i = 1; i <= 6; i++) {
        printf("cycle %d:", i);
        traffic_light_cycle(&ctx);
        printf(" -> %s\n", traffic_light_state_name(ctx.state));
    }
    return 0;
}
