export type Time = {
  sec: number;
  nsec: number;
};
